"""What every game's SVG picture shares (the ``svg`` feature): the document, short numbers, text, the caption.

>>> root = document(40, 20, "damier-board test", "A test", "Sans")
>>> text(root, 2.5, 10, "a < b").text, number(12.50), number(-0.001)
('a < b', '12.5', '0')
"""

from __future__ import annotations

import xml.etree.ElementTree as ET


def number(value: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``, ``-3.25``."""
    out = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if out == "-0" else out


def document(width: float, height: float, cls: str, label: str, font: str) -> ET.Element:
    """A standalone ``<svg>`` root of the given size, described for screen readers by ``label``."""
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {number(width)} {number(height)}",
        "width": number(width), "height": number(height), "class": cls, "role": "img", "font-family": font,
    })
    root.set("aria-label", label)
    return root


def text(parent: ET.Element, x: float, y: float, words: str) -> ET.Element:
    """A ``<text>`` at (x, y); ElementTree escapes the words."""
    element = ET.SubElement(parent, "text", {"x": number(x), "y": number(y)})
    element.text = words
    return element


def caption(root: ET.Element, x: float, y: float, words: str, swatch: dict[str, str] | None, colour: str,
            size: float) -> ET.Element:
    """The caption line under a board: an optional colour swatch (a circle's attributes), then the words."""
    line = ET.SubElement(root, "g", {"class": "caption"})
    if swatch is not None:
        ET.SubElement(line, "circle", {"cx": number(x + 8), "cy": number(y - 5), "r": "7", **swatch})
    words_element = text(line, x + 22, y, words)
    words_element.set("fill", colour)
    words_element.set("font-size", number(size))
    words_element.set("font-weight", "600")
    return line
