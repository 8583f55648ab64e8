"""A small HTML tree for the page tests (the standard library's parser, no dependency)."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None = None):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def get(self, name: str) -> str | None:
        return self.attrs.get(name)

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs) -> list[Node]:
        """Descendants by tag, class and attribute values (True: the attribute is there);
        `data_x` stands for `data-x`."""
        wanted = {k.replace("_", "-"): v for k, v in attrs.items()}
        found = []
        for child in self.children:
            if isinstance(child, str):
                continue
            if (
                (tag is None or child.tag == tag)
                and (cls is None or cls in child.classes)
                and all(
                    (name in child.attrs) if value is True else child.attrs.get(name) == value
                    for name, value in wanted.items()
                )
            ):
                found.append(child)
            found.extend(child.find_all(tag, cls, **attrs))
        return found

    def find(self, tag: str | None = None, cls: str | None = None, **attrs) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
