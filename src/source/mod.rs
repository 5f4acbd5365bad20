//! Opening inputs (placeholder while the splitter lands).
