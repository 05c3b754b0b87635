"""Run by Debian's Python (python3-gi), not the venv, on the test's X display.

python3 gtk_helper.py screenshot OUT.png
    writes the whole screen (the root window) as a PNG.
python3 gtk_helper.py drag-source FOLDER X Y
    shows a small window at (X, Y) that a person can drag FOLDER from, as
    from a file manager: it offers text/uri-list (file:// URI) through
    XDND. Prints "ready" once it is on screen, then "dropped" or
    "failed: REASON" when a drag ends, and exits."""

from __future__ import annotations

import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

SOURCE_TITLE = "Labwright test: drag source"
URI_LIST = 0


def screenshot(out: str) -> int:
    root = Gdk.get_default_root_window()
    if root is None:
        print("no X display", file=sys.stderr)
        return 1
    pixbuf = Gdk.pixbuf_get_from_window(root, 0, 0, root.get_width(), root.get_height())
    if pixbuf is None:
        print("the screen could not be read", file=sys.stderr)
        return 1
    pixbuf.savev(out, "png", [], [])
    return 0


def drag_source(folder: str, x: int, y: int) -> int:
    failure: list[str] = []
    window = Gtk.Window(title=SOURCE_TITLE)
    window.set_default_size(200, 120)
    window.move(x, y)  # no window manager on Xvfb: the position is taken as asked
    handle = Gtk.EventBox()
    handle.add(Gtk.Label(label=folder.rsplit("/", 1)[-1]))
    window.add(handle)
    handle.drag_source_set(
        Gdk.ModifierType.BUTTON1_MASK,
        [Gtk.TargetEntry.new("text/uri-list", 0, URI_LIST)],
        Gdk.DragAction.COPY,
    )

    def data_get(_w: object, _ctx: object, data: Gtk.SelectionData, *_: object) -> None:
        data.set_uris([Gio.File.new_for_path(folder).get_uri()])

    def failed(_w: object, _ctx: object, result: Gtk.DragResult) -> bool:
        failure.append(result.value_nick)
        return True  # no "snap back" animation

    def ended(*_: object) -> None:
        # drag-failed, when it happens, comes before drag-end.
        print(f"failed: {failure[0]}" if failure else "dropped", flush=True)
        GLib.idle_add(Gtk.main_quit)

    handle.connect("drag-data-get", data_get)
    handle.connect("drag-failed", failed)
    handle.connect("drag-end", ended)
    window.connect("map-event", lambda *_: print("ready", flush=True))
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    Gtk.main()
    return 1 if failure else 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "screenshot":
        return screenshot(argv[1])
    if len(argv) == 4 and argv[0] == "drag-source":
        return drag_source(argv[1], int(argv[2]), int(argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
