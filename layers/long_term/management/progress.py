"""The progress bar the long-term commands draw on stderr (reembed, import_memories)."""


def progress_bar(done: int, total: int, width: int = 40, suffix: str = "") -> str:
    filled = int(width * done / total) if total else width
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}{suffix}"
