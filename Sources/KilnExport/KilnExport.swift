// Module KilnExport: see docs/architecture.md.
