"""Shrink a frozen onedir bundle on Linux without changing what it can do.

    python build_scripts/slim_bundle.py BUNDLE_DIR

Two steps, both lossless for the program and deterministic:

1. Strip every ELF shared object (`strip --strip-all`: the symbol table and
   debug sections; the dynamic symbols the loader and ctypes use stay). Some
   wheels' libraries were rewritten by auditwheel's patchelf, and GNU strip
   lays those out again with load segments whose file offset no longer matches
   their address modulo the alignment: glibc then refuses them ("ELF load
   command address/offset not page-aligned"; it happened to both OpenBLAS
   builds and numpy's libgfortran). So each stripped copy is checked for that
   congruence, and kept only when it holds and the file got smaller.
2. Replace byte-identical shared libraries that share a file name with a
   relative symlink to the first copy (sorted by path): numpy.libs and
   scipy.libs both vendor the same libgfortran and libquadmath. The loader
   opens the symlink's target; both packages then share one mapping, which
   the loader already did, because the sonames are equal.
3. Replace shared libraries that carry the same code under different names
   with a relative symlink to the first copy: numpy is built against PyPI's
   `scipy-openblas32` (scripts/numpy_openblas.sh), the very OpenBLAS scipy's
   wheel vendors under a hashed name after auditwheel rewrote its headers, so
   the bytes differ but the program does not. "Same code" is checked, never
   assumed from names or versions: every allocated section that holds code or
   data (.text, .rodata, .data, ...: their bytes; .bss: its size) and every
   defined dynamic symbol (name, address, size, kind) must be equal; only the
   dependency names, the soname and the header layout may differ. A scipy
   built against another OpenBLAS simply does not match, and both copies stay.
   Both names keep resolving: the loader finds the dependencies of either
   through PyInstaller's top-level links, and a library opened through two
   names that are one file (same inode) is mapped once.

Prints one line per step with the bytes saved. Windows and macOS bundles are
left alone (PE/Mach-O, code signing): the release workflow runs this only
where `uname` says Linux, through freeze.sh.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

PT_LOAD = 1


def _is_elf(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"\x7fELF"


def shared_objects(bundle: Path) -> list[Path]:
    """Regular ELF files named like shared objects (no symlinks), sorted."""
    found = [
        p
        for p in bundle.rglob("*")
        if p.is_file()
        and not p.is_symlink()
        and (p.name.endswith(".so") or ".so." in p.name)
        and _is_elf(p)
    ]
    return sorted(found)


def loads_aligned(path: Path) -> bool:
    """Every PT_LOAD segment has offset == address modulo its alignment (what
    glibc's loader requires); 64-bit little-endian ELF only, else False."""
    data = path.read_bytes()
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        return False
    phoff = struct.unpack_from("<Q", data, 0x20)[0]
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        base = phoff + i * phentsize
        p_type = struct.unpack_from("<I", data, base)[0]
        if p_type != PT_LOAD:
            continue
        p_offset, p_vaddr = struct.unpack_from("<QQ", data, base + 8)
        p_align = struct.unpack_from("<Q", data, base + 48)[0]
        if p_align > 1 and (p_vaddr - p_offset) % p_align != 0:
            return False
    return True


def strip_all(bundle: Path, strip: str = "strip") -> tuple[int, list[Path]]:
    """Strip in place where the result loads; (bytes saved, files left as they were)."""
    saved, kept = 0, []
    with tempfile.TemporaryDirectory(prefix="lw-strip-") as tmp:
        out = Path(tmp) / "stripped"
        for lib in shared_objects(bundle):
            done = subprocess.run(
                [strip, "--strip-all", "-o", str(out), str(lib)], capture_output=True, check=False
            )
            before = lib.stat().st_size
            if done.returncode != 0 or not loads_aligned(out) or out.stat().st_size >= before:
                kept.append(lib)
                continue
            saved += before - out.stat().st_size
            mode = lib.stat().st_mode
            shutil.copyfile(out, lib)
            os.chmod(lib, mode)
    return saved, kept


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def link_duplicates(bundle: Path) -> tuple[int, list[tuple[Path, Path]]]:
    """Symlink identical same-named shared objects to the first copy; (bytes saved, links)."""
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for lib in shared_objects(bundle):
        groups[(lib.name, _digest(lib))].append(lib)
    return _link_groups(groups.values())


def _link_groups(groups: Iterable[list[Path]]) -> tuple[int, list[tuple[Path, Path]]]:
    """Each later path of a group becomes a relative symlink to the first."""
    saved, links = 0, []
    for paths in groups:
        first, *rest = paths
        for dup in rest:
            saved += dup.stat().st_size
            dup.unlink()
            dup.symlink_to(os.path.relpath(first, dup.parent))
            links.append((dup, first))
    return saved, links


# Sections whose content is the program (code, constants, initialised data).
_CODE_SECTIONS = (
    ".text",
    ".rodata",
    ".data",
    ".data.rel.ro",
    ".init_array",
    ".fini_array",
    ".tdata",
    ".eh_frame",
    ".gcc_except_table",
)
_NOBITS = 8
_SHT_DYNSYM = 11


def code_key(path: Path) -> str | None:
    """A digest of what the library does, independent of its name, soname,
    needed names and header layout; None when it is not a 64-bit LE ELF."""
    data = path.read_bytes()
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        return None
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0 or shnum == 0 or shstrndx >= shnum:
        return None
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx]

    def name(offset: int, table: tuple[int, ...]) -> bytes:
        start = table[4] + offset
        return data[start : data.index(b"\0", start)]

    digest = hashlib.sha256()
    named = {name(h[0], strtab).decode("latin-1"): h for h in headers}
    for section in (*_CODE_SECTIONS, ".bss", ".tbss"):
        header = named.get(section)
        if header is None:
            digest.update(f"{section}:absent;".encode())
            continue
        _, sh_type, _, addr, offset, size = header[:6]
        digest.update(f"{section}:{addr}:{size};".encode())
        if sh_type != _NOBITS:
            digest.update(data[offset : offset + size])
    symbols = []
    for header in headers:
        if header[1] != _SHT_DYNSYM:
            continue
        dynstr = headers[header[6]]
        for pos in range(header[4], header[4] + header[5], 24):
            st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from(
                "<IBBHQQ", data, pos
            )
            if st_shndx != 0 and st_name:
                symbols.append((name(st_name, dynstr), st_info, st_value, st_size))
    if not symbols:
        return None
    for symbol in sorted(symbols):
        digest.update(repr(symbol).encode())
    return digest.hexdigest()


def link_same_code(bundle: Path) -> tuple[int, list[tuple[Path, Path]]]:
    """Symlink libraries with equal code_key to the first copy; (bytes saved, links)."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for lib in shared_objects(bundle):
        key = code_key(lib)
        if key is not None:
            groups[key].append(lib)
    return _link_groups(groups.values())


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: slim_bundle.py BUNDLE_DIR", file=sys.stderr)
        return 2
    bundle = Path(argv[0])
    saved, kept = strip_all(bundle)
    names = ", ".join(p.name for p in kept[:6]) + (" ..." if len(kept) > 6 else "")
    print(f"[slim] strip: {saved / 1e6:.1f} MB saved; {len(kept)} left as they were ({names})")
    saved, links = link_duplicates(bundle)
    for dup, first in links:
        print(f"[slim] {dup.relative_to(bundle)} -> {first.relative_to(bundle)}")
    print(f"[slim] duplicates: {saved / 1e6:.1f} MB saved")
    saved, links = link_same_code(bundle)
    for dup, first in links:
        print(f"[slim] same code: {dup.relative_to(bundle)} -> {first.relative_to(bundle)}")
    print(f"[slim] same code: {saved / 1e6:.1f} MB saved")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
