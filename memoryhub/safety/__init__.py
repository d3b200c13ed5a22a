"""Safety filters shared by every layer: secrets (never stored as memories, redacted from turns) and
instruction-like content (quarantined, never served)."""
