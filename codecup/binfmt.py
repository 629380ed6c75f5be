"""Whether the kernel can start a file that is neither an ELF binary nor a ``#!`` script: the formats
registered with binfmt_misc (``/proc/sys/fs/binfmt_misc``: Mono's ``.exe``, jar files, another
architecture's binaries through QEMU), each matched by its magic bytes or its name's extension.

Read so as never to refuse what the kernel runs: a checked program is refused up front only where
no enabled format takes it (a red team's script without a ``#!`` line passed the check, then
crashed in every game with "Exec format error").
"""

from __future__ import annotations

from pathlib import Path

import attrs

BINFMT_MISC = Path("/proc/sys/fs/binfmt_misc")

#: The bytes the kernel looks at to match a format's magic (its BINPRM_BUF_SIZE).
HEAD = 256


@attrs.frozen
class Format:
    """One registered format: its magic at ``offset`` (under ``mask``), or a name's extension."""

    name: str
    enabled: bool
    magic: bytes | None = None
    offset: int = 0
    mask: bytes | None = None
    extension: str | None = None

    @classmethod
    def from_text(cls, name: str, text: str) -> Format:
        """A format as its entry's file describes it (``enabled``, ``offset 0``, ``magic 4d5a``,
        ``mask ff..``, or ``extension .jar``)."""
        lines = text.splitlines()
        fields = dict(line.split(" ", 1) for line in lines[1:] if " " in line)
        hexed = {key: bytes.fromhex(fields[key]) for key in ("magic", "mask") if key in fields}
        extension = fields.get("extension")
        return cls(
            name,
            bool(lines) and lines[0].strip() == "enabled",
            hexed.get("magic"),
            int(fields.get("offset", "0")),
            hexed.get("mask"),
            extension.strip().lstrip(".") if extension is not None else None,
        )

    def takes(self, path: str, head: bytes) -> bool:
        """Whether the kernel starts the file at ``path``, which begins with ``head``, by this format."""
        if not self.enabled:
            return False
        if self.extension is not None:  # the kernel's test: what follows the path's last dot
            dot = path.rfind(".")
            return dot >= 0 and path[dot + 1 :] == self.extension
        if self.magic is None:
            return False
        part = head[self.offset : self.offset + len(self.magic)]
        if len(part) < len(self.magic):
            return False
        mask = self.mask or b"\xff" * len(self.magic)
        return all((a ^ b) & m == 0 for a, b, m in zip(part, self.magic, mask, strict=False))


def registered(folder: Path | None = None) -> list[Format] | None:
    """The formats registered in ``folder`` (none where binfmt_misc is switched off), or None where
    it is not mounted or cannot be read: then what the kernel runs by it cannot be known.
    ``folder``: binfmt_misc's (:data:`BINFMT_MISC`)."""
    folder = BINFMT_MISC if folder is None else folder
    try:
        status = (folder / "status").read_text().strip()
        if status != "enabled":
            return []
        formats = []
        for entry in sorted(folder.iterdir()):
            if entry.name in ("status", "register"):
                continue
            try:
                formats.append(Format.from_text(entry.name, entry.read_text()))
            except (OSError, ValueError):
                return None  # an entry not understood: it may take the file
        return formats
    except OSError:
        return None


def kernel_may_run(path: str, head: bytes, folder: Path | None = None) -> bool | None:
    """Whether a registered format takes the file at ``path`` beginning with ``head``: True, False,
    or None where the formats cannot be read (binfmt_misc not mounted, as in many containers,
    whose kernel may still have formats registered)."""
    formats = registered(folder)
    if formats is None:
        return None
    return any(f.takes(path, head) for f in formats)
