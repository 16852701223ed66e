"""How the boards draw what they show: one legend-explained mark for reconstructed data,
readable hovered dice, words that do not overlap or get cut off, stacked dice that all
show, and log numbers that fit."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    board_target,
    drive,
    legal_ids,
    open_play,
    tokens_of,
    wait_my_turn,
)

# The elements marked as reconstructed data (by the mark, or by the words of their
# explanation) and the dash pattern of every outline they draw.
RECONSTRUCTED_JS = """() => {
  const marked = [...document.querySelectorAll('#board .recon-mark')];
  const worded = [...document.querySelectorAll('#board [data-explain]')]
    .filter(e => /reconstructed/i.test(e.getAttribute('data-explain')));
  const dashed = [];
  for (const e of worded) {
    for (const s of [e, ...e.querySelectorAll('rect, path, circle, polygon')]) {
      const cs = getComputedStyle(s);
      const outline = getComputedStyle(e).outlineStyle;
      if ((cs.strokeDasharray && cs.strokeDasharray !== 'none' && s.closest('.recon-mark')
           === null && !s.closest('.wc-space, .legal')) || outline === 'dashed')
        dashed.push(e.getAttribute('data-explain').slice(0, 50));
    }
  }
  return {marked: marked.length, worded: worded.length, dashed: [...new Set(dashed)],
          unmarked: worded.filter(e => !e.querySelector('.recon-mark')
                                        && !e.classList.contains('recon-mark'))
                          .map(e => e.getAttribute('data-explain').slice(0, 50))};
}"""

LEGEND_JS = """() => {
  const legend = document.querySelector('#board .legend');
  if (!legend) return null;
  return {text: legend.textContent, mark: !!legend.querySelector('.recon-mark'),
          legal: !!legend.querySelector('.legal-sample')};
}"""


def _check_reconstructed(page: Any, where: str) -> None:
    """Reconstructed components carry the mark (never a dashed outline), and the board's
    legend shows and explains the mark and the highlight of a choice."""
    got = page.evaluate(RECONSTRUCTED_JS)
    assert got["worded"] >= 1, f"{where}: nothing reconstructed to look at"
    assert got["marked"] >= 1, f"{where}: no reconstructed mark on the board"
    assert not got["unmarked"], f"{where}: reconstructed without the mark: {got['unmarked']}"
    assert not got["dashed"], f"{where}: reconstructed drawn dashed: {got['dashed']}"
    legend = page.evaluate(LEGEND_JS)
    assert legend, f"{where}: the board has no legend"
    assert legend["mark"] and "reconstructed" in legend["text"], legend
    assert legend["legal"], f"{where}: the legend does not show what a choice looks like"


@pytest.mark.timeout(120)
def test_reconstructed_data_has_one_mark_that_the_legend_explains(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The solo White Castle board (its Solitaire deck and domain cells are reconstructed)
    and I, Clansman (some cards are: Kofun 200 in the Expert game) mark them with the legend's mark, not a dash."""
    solo = server.create("white-castle", ["human"], seed=12, difficulty="easy")
    page = new_page("recon-wc")
    open_play(page, solo["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    _check_reconstructed(page, "The White Castle")
    clansman = server.create("clansman", ["human"] * 4, seed=4, expert=True)
    watcher = new_page("recon-clansman")
    open_play(watcher, server.url + clansman["spectator_link"])
    watcher.wait_for_selector("#board [data-card='200']", state="attached")  # Kofun 200
    _check_reconstructed(watcher, "I, Clansman")


def _luminance(rgb: str) -> float:
    """Relative luminance of a CSS rgb() colour (WCAG)."""
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.timeout(120)
def test_a_hovered_black_die_keeps_its_number_readable(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Hovering over a black die that can be taken keeps its number readable (contrast
    of at least 4.5 between the number and the die under it)."""
    solo = server.create("white-castle", ["human"], seed=12, difficulty="easy")
    page = new_page("black-die")
    open_play(page, solo["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    take = page.locator("button.action[data-notation='take black left']")
    target = board_target(page, int(take.get_attribute("data-action-id")))
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(300)
    colours = target.evaluate("""e => {
      const t = [...e.querySelectorAll('text')].find(t => /^[1-6]$/.test(t.textContent));
      const tr = t.getBoundingClientRect();
      const body = [...e.querySelectorAll('rect')].filter(r => {
        const b = r.getBoundingClientRect();
        return b.left <= tr.left && b.right >= tr.right && b.top <= tr.top
          && b.bottom >= tr.bottom && getComputedStyle(r).fill !== 'none';
      }).pop();
      return [getComputedStyle(t).fill, getComputedStyle(body).fill];
    }""")
    assert _contrast(*colours) >= 4.5, colours


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a hair."""
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5)


WORD_BOXES_JS = """heading => {
  // the box of every piece of text on the board: SVG text elements, and HTML text nodes
  const boxes = [];
  for (const t of document.querySelectorAll('#board svg text')) {
    const r = t.getBoundingClientRect();
    if (r.width) boxes.push({text: t.textContent, left: r.left, right: r.right, top: r.top,
                             bottom: r.bottom});
  }
  const walk = document.createTreeWalker(document.getElementById('board'),
                                         NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const n = walk.currentNode;
    if (!n.textContent.trim() || n.parentElement.closest('svg')) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width) boxes.push({text: n.textContent.trim(), left: r.left, right: r.right,
                             top: r.top, bottom: r.bottom});
  }
  return boxes;
}"""


@pytest.mark.timeout(120)
def test_the_score_heading_does_not_overlap_a_column_label(
        server: Server, new_page: Callable[..., Any]) -> None:
    """"Score if the game ended now" shares its space with no other words (on the
    desktop and on a phone)."""
    created = server.create("white-castle", ["human", "random", "random", "random"], seed=9)
    for phone in (False, True):
        page = new_page(f"score-heading-{phone}", phone=phone)
        open_play(page, created["seats"][0]["url"])
        boxes = page.evaluate(WORD_BOXES_JS, None)
        heads = [b for b in boxes if b["text"] == "Score if the game ended now"]
        assert heads, "no score heading on the board"
        crossed = [b["text"] for b in boxes for h in heads
                   if b is not h and b["text"] != h["text"] and _overlaps(b, h)]
        assert not crossed, f"the heading overlaps {crossed}"


@pytest.mark.timeout(120)
def test_the_i_clansman_winner_tag_is_whole(server: Server,
                                            new_page: Callable[..., Any]) -> None:
    """At the end of an I, Clansman game the winner's tag in its panel is whole: inside its
    drawing and under nothing else."""
    created = server.create("clansman", ["random", "random", "random", "random"], seed=21)
    game = f"/api/games/{created['id']}"
    deadline = time.monotonic() + 90
    while not server.api(game)["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    page = new_page("clansman-winner")
    open_play(page, server.url + created["spectator_link"])
    page.wait_for_selector("body[data-over='true']")
    problems = page.evaluate("""() => {
      const out = [];
      const tags = [...document.querySelectorAll('#board svg text')]
        .filter(t => /WINNER|wins/i.test(t.textContent));
      if (!tags.length) out.push('no winner tag');
      for (const t of tags) {
        const r = t.getBoundingClientRect();
        const svg = t.ownerSVGElement.getBoundingClientRect();
        if (r.left < svg.left - 0.5 || r.right > svg.right + 0.5) out.push('cut off: ' + t.textContent);
        for (const o of t.ownerSVGElement.querySelectorAll('text, .cm-vp, .cm-total, .cm-token')) {
          if (o === t || o.contains(t)) continue;
          const b = o.getBoundingClientRect();
          if (Math.min(b.right, r.right) - Math.max(b.left, r.left) > 0.5
              && Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top) > 0.5)
            out.push(`${t.textContent} under ${o.textContent}`);
        }
      }
      return out;
    }""")
    assert not problems, problems


@pytest.mark.timeout(120)
def test_stacked_dice_outside_the_walls_all_show(server: Server,
                                                 new_page: Callable[..., Any]) -> None:
    """With two dice on the left space Outside the Walls (3 players may stack), every die
    on the board shows its whole number: nothing lies over it."""
    created = server.create("white-castle", ["human", "human", "human"], seed=4)
    drive(server, created["id"], tokens_of(created),
          lambda p: len(p["view"]["spaces"][5]) >= 2, random.Random(4),
          prefer=("place outside-left",))
    page = new_page("stacked-dice")
    open_play(page, server.url + created["spectator_link"])
    hidden = page.evaluate("""() => {
      const out = [];
      const dice = document.querySelectorAll('#board .wc-die');
      for (const d of dice) {
        const t = [...d.querySelectorAll('text')].find(t => /^[1-6]$/.test(t.textContent));
        t.scrollIntoView({block: 'center'});
        const r = t.getBoundingClientRect();
        for (const fx of [0.1, 0.3, 0.5, 0.7, 0.9]) for (const fy of [0.3, 0.6]) {
          const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
          if (!hit || !d.contains(hit)) { out.push(d.getAttribute('data-explain')); break; }
        }
      }
      return {dice: dice.length, hidden: [...new Set(out)]};
    }""")
    assert hidden["dice"] >= 2 and not hidden["hidden"], hidden


@pytest.mark.timeout(120)
def test_log_numbers_from_100_on_are_whole(server: Server,
                                           new_page: Callable[..., Any]) -> None:
    """A log of more than 100 lines shows every line's number whole, inside the log."""
    created = server.create("white-castle", ["human", "human", "human"], seed=17)
    drive(server, created["id"], tokens_of(created), lambda p: len(p["log"]) >= 110,
          random.Random(17))
    page = new_page("long-log")
    open_play(page, server.url + created["spectator_link"])
    page.locator("#log li").nth(104).scroll_into_view_if_needed()
    cut = page.evaluate("""() => {
      const log = document.getElementById('log').getBoundingClientRect();
      const out = [];
      const items = [...document.querySelectorAll('#log li')];
      items.forEach((li, i) => {
        const n = li.querySelector('.log-n');
        if (!n) { out.push(`line ${i + 1} has no number`); return; }
        const r = n.getBoundingClientRect();
        if (n.textContent.trim() !== String(i + 1)) out.push(`line ${i + 1} numbered ${n.textContent}`);
        if (r.left < log.left - 0.5 || n.scrollWidth > n.clientWidth + 1)
          out.push(`line ${i + 1}: its number is cut off`);
      });
      return {n: items.length, cut: out.slice(0, 5)};
    }""")
    assert cut["n"] >= 110 and not cut["cut"], cut
    assert legal_ids(page) == []
