"""The pages in a real Chromium, against the real server (fixtures in conftest.py).

Every game here is played by clicking the squares of the drawn board, as a person would;
the facts checked come from the API's solvers and from the papers (a 4 x 4 checkerboard
reduces to 1 stone in Solitaire Clobber, Demaine-Demaine-Fleischer Thm 5; {0|^} = ^^*,
Winning Ways).
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def wait_idle(page, tab: str) -> None:
    """Wait until no request of the tab ``tab`` runs (its panel's data-busy is 0)."""
    # a selector, not wait_for_function: the server's Content-Security-Policy forbids eval
    page.locator(f'#panel-{tab}[data-busy="0"]').wait_for(state="attached", timeout=30_000)


def fragment(page) -> dict[str, str]:
    """The parameters of the page's URL fragment ('#clobber?board=...')."""
    h = page.evaluate("location.hash")
    query = h.split("?", 1)[1] if "?" in h else ""
    return {k: v for k, v in urllib.parse.parse_qsl(query.replace("+", "%2B"))}


def click_square(page, board_id: str, square: str) -> None:
    page.locator(f'#{board_id} [data-square="{square}"]').click()


def play_move(page, board_id: str, move: str) -> None:
    """Play ``move`` ('a1-b1') by clicking its two squares."""
    src, dst = move.split("-")
    click_square(page, board_id, src)
    click_square(page, board_id, dst)


@pytest.mark.parametrize("human", ["white", "black"])
def test_clobber_game_against_the_computer(page, server_url, call_api, screenshots, human):
    start = "xoxo/oxox/xoxo"
    verdict = call_api("clobber/solve", {"board": start, "first": "black"})
    assert verdict["exact"] and verdict["winner"] == "white"  # 3x4 is a second-player win
    page.goto(f"{server_url}/#clobber?board={start}&first=black&mode=computer&human={human}")
    wait_idle(page, "clobber")
    played = 0
    while not page.locator("#clobber-winner").get_attribute("data-winner"):
        f = fragment(page)
        moves = [m for m in f.get("moves", "").split(",") if m]
        if moves:  # the computer has just moved, and says why
            assert page.locator("#clobber-why").inner_text().startswith("The computer played")
        st = call_api("clobber/state", {"board": start, "moves": moves, "first": "black"})
        assert st["to_move"] == human and not st["game_over"]
        solved = call_api("clobber/solve", {"board": st["board"], "first": human})
        move = solved["winning_moves"][0] if solved["winner"] == human else st["legal_moves"][0]
        play_move(page, "clobber-board", move)
        wait_idle(page, "clobber")
        played += 1
        assert played < 12, "the game did not end"
    winner = page.locator("#clobber-winner")
    assert winner.get_attribute("data-winner") == verdict["winner"]
    assert ("you win" in winner.inner_text()) == (human == verdict["winner"])
    # the moves shown are the fragment's, and the final position is over
    f = fragment(page)
    moves = f["moves"].split(",")
    st = call_api("clobber/state", {"board": start, "moves": moves, "first": "black"})
    assert st["game_over"] and st["winner"] == verdict["winner"]
    assert page.locator("#clobber-movelist li").count() == len(moves)
    page.screenshot(path=str(screenshots / f"clobber-{human}.png"), full_page=True)


def test_clobber_value_winning_moves_undo_redo_and_keys(page, server_url, call_api, screenshots):
    start = "xoxo/oxox"
    page.goto(f"{server_url}/#clobber?board={start}&first=black&mode=human")
    wait_idle(page, "clobber")
    value = call_api("clobber/value", {"board": start})
    assert page.locator("#clobber-value").inner_text() == value["value"]
    assert page.locator("#clobber-outcome").inner_text().startswith(value["outcome"] + ":")
    page.locator("#clobber-show-wins").check()
    wait_idle(page, "clobber")
    solved = call_api("clobber/solve", {"board": start, "first": "black"})
    assert solved["winner"] == "black"
    shown = page.locator("#clobber-wins").inner_text()
    assert all(m in shown for m in solved["winning_moves"])
    marked = page.locator("#clobber-board .win").evaluate_all(
        "els => els.map(e => e.dataset.square)")
    assert set(marked) == {m.split("-")[0] for m in solved["winning_moves"]}
    # the board downloads as the SVG drawing the server made
    with page.expect_download() as info:
        page.locator("#clobber-download").click()
    saved = info.value.path().read_text()
    assert saved.startswith("<svg") and saved.count('class="stone black"') == 4
    assert info.value.suggested_filename == "clobber.svg"
    # keyboard: focus a1, Enter selects it, arrow right to b1, Enter plays a1-b1
    page.locator('#clobber-board [data-square="a1"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    wait_idle(page, "clobber")
    assert fragment(page)["moves"] == "a1-b1"
    assert page.locator("#clobber-turn").inner_text().startswith("White to move")
    page.keyboard.press("u")
    wait_idle(page, "clobber")
    assert fragment(page).get("moves", "") == ""
    page.keyboard.press("r")
    wait_idle(page, "clobber")
    assert fragment(page)["moves"] == "a1-b1"
    # a drag plays too: white c2 takes b2's black stone
    page.drag_and_drop('#clobber-board [data-square="c2"]', '#clobber-board [data-square="b2"]')
    wait_idle(page, "clobber")
    assert fragment(page)["moves"] == "a1-b1,c2-b2"


def test_fragment_restores_the_position(page, server_url, call_api, screenshots):
    url = f"{server_url}/#clobber?board=xoxo/oxox&moves=a1-b1,c2-b2&first=black&mode=human"
    expected = call_api("clobber/state", {"board": "xoxo/oxox", "moves": ["a1-b1", "c2-b2"]})

    def check() -> None:
        wait_idle(page, "clobber")
        assert page.locator("#tab-clobber").get_attribute("aria-selected") == "true"
        assert page.locator("#clobber-board .stone.black").count() == expected["board"].count("x")
        assert page.locator("#clobber-board .stone.white").count() == expected["board"].count("o")
        assert page.locator("#clobber-movelist li").count() == 2
        assert page.locator("#clobber-turn").inner_text().startswith("Black to move")
        assert "board: xoxo/oxox" in page.locator("#clobber-game").input_value()

    page.goto(f"{server_url}/#cgt")  # another tab first: loading the URL switches tabs
    wait_idle(page, "cgt")
    page.goto(url)
    check()
    page.reload()
    check()
    # pasting a game loads it, and the fragment follows
    page.locator("#clobber-game").fill("xox\noxo\nmoves: a1-b1")
    page.locator("#clobber-load").click()
    wait_idle(page, "clobber")
    f = fragment(page)
    assert (f["board"], f["moves"]) == ("xox/oxo", "a1-b1")
    # a pasted link opens its position
    page.locator("#clobber-game").fill(f"{server_url}/#clobber?board=oxo/xox&moves=b1-a1&mode=human")
    page.locator("#clobber-load").click()
    wait_idle(page, "clobber")
    f = fragment(page)
    assert (f["board"], f["moves"]) == ("oxo/xox", "b1-a1")
    assert page.locator("#clobber-board .stone").count() == 5
    # an illegal move is refused with the server's sentence in the status line
    page.locator("#clobber-game").fill("xox/oxo a1-c1")
    page.locator("#clobber-load").click()
    wait_idle(page, "clobber")
    status = page.locator("#status-clobber")
    assert "a1-c1" in status.inner_text() and "error" in (status.get_attribute("class") or "")
    # another tab's fragment opens that tab
    page.goto(f"{server_url}/#cgt?expr=%7B1%7C*%7D")
    wait_idle(page, "cgt")
    assert page.locator("#tab-cgt").get_attribute("aria-selected") == "true"
    assert page.locator("#cgt-value").get_attribute("data-value") == "{1|*}"


def test_solitaire_hints_reach_the_proved_optimum(page, server_url, screenshots):
    page.goto(f"{server_url}/#solitaire?board=xoxo/oxox/xoxo/oxox&first=any&rules=sc")
    wait_idle(page, "solitaire")
    optimum = page.locator("#solitaire-optimum").get_attribute("data-value")
    assert optimum == "1"  # Thm 5: a checkerboard reduces to 1 stone unless 3 divides nm
    assert page.locator("#solitaire-left").get_attribute("data-value") == "16"
    for _ in range(15):
        page.locator("#solitaire-hint").click()
        wait_idle(page, "solitaire")
        move = page.locator("#solitaire-hint-move").get_attribute("data-move")
        assert move, page.locator("#status-solitaire").inner_text()
        play_move(page, "solitaire-board", move)
        wait_idle(page, "solitaire")
    assert page.locator("#solitaire-left").get_attribute("data-value") == optimum
    assert "the optimum!" in page.locator("#solitaire-end").inner_text()
    page.screenshot(path=str(screenshots / "solitaire.png"), full_page=True)
    # the solved witness replays step by step from the start
    page.locator("#solitaire-witness").click()
    wait_idle(page, "solitaire")
    assert page.locator("#solitaire-left").get_attribute("data-value") == "16"
    page.locator("#solitaire-step").click()
    wait_idle(page, "solitaire")
    assert page.locator("#solitaire-left").get_attribute("data-value") == "15"


def test_clickomania_cleared_by_clicks(page, server_url, call_api, screenshots):
    board = "1212/1122/2211"
    solved = call_api("clickomania/solve", {"board": board})
    assert solved["solvable"] and solved["exact"]
    page.goto(f"{server_url}/#clickomania?board={board}")
    wait_idle(page, "clickomania")
    expected_score = 0
    played: list[str] = []
    for square in solved["moves"]:
        st = call_api("clickomania/state", {"board": board, "moves": played})
        group = next(g for g in st["legal_moves"] if square in g["squares"])
        # hovering a block outlines its whole group
        page.locator(f'#click-board [data-square="{square}"]').hover()
        outlined = page.locator("#click-board .grp").evaluate_all(
            "els => els.map(e => e.dataset.square)")
        assert sorted(outlined) == sorted(group["squares"])
        expected_score += (group["size"] - 2) ** 2
        click_square(page, "click-board", square)
        wait_idle(page, "clickomania")
        played.append(square)
    expected_score += 1000  # a cleared board
    assert page.locator("#click-end").get_attribute("data-cleared") == "1"
    assert page.locator("#click-score").get_attribute("data-value") == str(expected_score)
    assert page.locator("#click-board [data-square]").count() == 0
    page.screenshot(path=str(screenshots / "clickomania.png"), full_page=True)
    # undo brings the last group back
    page.locator("#click-undo").click()
    wait_idle(page, "clickomania")
    assert page.locator("#click-board [data-square]").count() > 0


def test_clickomania_standard_board_and_hint(page, server_url, screenshots):
    page.goto(f"{server_url}/#clickomania")
    wait_idle(page, "clickomania")
    page.locator("#click-standard").select_option("1")
    wait_idle(page, "clickomania")
    assert page.locator("#click-board [data-square]").count() == 225  # 15 x 15, full
    page.locator("#click-hint").click()
    wait_idle(page, "clickomania")
    hint = page.locator("#click-hint-move").get_attribute("data-move")
    assert hint and page.locator("#click-board .hint").count() >= 2
    page.screenshot(path=str(screenshots / "clickomania-standard.png"), full_page=True)


def test_impartial_grundy_values(page, server_url, call_api, screenshots):
    board = "xoxo.xo"
    page.goto(f"{server_url}/#impartial?board={board}&mode=computer&human=first")
    wait_idle(page, "impartial")
    value = call_api("grundy/value", {"board": board})
    assert page.locator("#impartial-grundy").inner_text().startswith(str(value["grundy"]))
    options = call_api("grundy/options", {"board": board})
    assert page.locator("#impartial-options li").count() == len(options["options"])
    # the first player wins (G = 2): play a winning move, the computer answers
    move = value["winning_moves"][0]
    play_move(page, "impartial-board", move)
    wait_idle(page, "impartial")
    assert len(fragment(page)["moves"].split(",")) == 2
    assert page.locator("#impartial-why").inner_text().startswith("The computer played")
    page.screenshot(path=str(screenshots / "impartial.png"), full_page=True)


def test_cgt_calculator(page, server_url, screenshots):
    page.goto(f"{server_url}/#cgt")
    wait_idle(page, "cgt")
    page.locator("#cgt-input").fill("{0|^}")
    page.locator("#cgt-input").press("Enter")
    wait_idle(page, "cgt")
    assert page.locator("#cgt-value").get_attribute("data-value") == "^^*"  # Winning Ways
    assert page.locator("#cgt-outcome").inner_text().startswith("L")
    assert page.locator("#cgt-thermograph svg").count() == 1
    page.screenshot(path=str(screenshots / "cgt.png"), full_page=True)
    page.locator("#cgt-input").fill("{1|")
    page.locator("#cgt-input").press("Enter")
    wait_idle(page, "cgt")
    assert page.locator("#status-cgt").inner_text()  # the server's sentence
    assert "error" in (page.locator("#status-cgt").get_attribute("class") or "")


def test_phone_width_stacks(browser, server_url, screenshots):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{server_url}/#clobber?board=xoxo/oxox/xoxo&mode=human")
        wait_idle(page, "clobber")
        board = page.locator("#clobber-board").bounding_box()
        side = page.locator("#panel-clobber .side").bounding_box()
        assert side["y"] >= board["y"] + board["height"]
        assert board["width"] <= 390
        page.screenshot(path=str(screenshots / "clobber-phone.png"), full_page=True)
    finally:
        context.close()


def test_clickomania_click_shows_its_group_before_the_board_after(page, server_url, call_api):
    board = "1212/1122/2211"
    st = call_api("clickomania/state", {"board": board})
    group = next(g for g in st["legal_moves"] if "a1" in g["squares"])
    page.goto(f"{server_url}/#clickomania?board={board}")
    wait_idle(page, "clickomania")
    # the size selectors follow the board shown
    assert page.locator("#click-rows").input_value() == "3"
    assert page.locator("#click-cols").input_value() == "4"
    # the pointer over a block shows its group's size and points (the server's)
    page.locator('#click-board [data-square="a1"]').hover()
    assert page.locator("#click-group").inner_text() == (
        f"· this group: {group['size']} blocks, {group['points']} point"
        + ("" if group["points"] == 1 else "s"))
    # a click highlights the group that goes, then draws the server's board after it
    page.locator('#click-board [data-square="a1"]').click()
    vanishing = page.locator("#click-board .vanish").evaluate_all(
        "els => els.map(e => e.dataset.square)")
    assert sorted(vanishing) == sorted(group["squares"])
    assert page.locator("#panel-clickomania").get_attribute("data-busy") == "1"
    wait_idle(page, "clickomania")
    after = call_api("clickomania/state", {"board": board, "moves": ["a1"]})
    assert page.locator("#click-board .vanish").count() == 0
    assert page.locator("#click-board [data-square]").count() == after["blocks_left"]
    assert page.locator("#click-left").inner_text() == str(after["blocks_left"])
    assert page.locator("#click-movelist li").count() == 1


def test_clickomania_solution_ahead_in_the_move_list(page, server_url, call_api, screenshots):
    board = "1212/1122/2211"
    page.goto(f"{server_url}/#clickomania?board={board}")
    wait_idle(page, "clickomania")
    page.locator("#click-solve").click()
    wait_idle(page, "clickomania")
    solved = call_api("clickomania/solve", {"board": board, "maximize": True})
    ahead = page.locator("#click-movelist li.future")
    assert ahead.count() == len(solved["moves"]) and not fragment(page).get("moves")
    page.locator("#click-step").click()  # one click of the solution
    wait_idle(page, "clickomania")
    assert fragment(page)["moves"] == solved["moves"][0]
    assert ahead.count() == len(solved["moves"]) - 1
    page.locator("#click-movelist li button").last.click()  # forward to its end
    wait_idle(page, "clickomania")
    assert fragment(page)["moves"] == ",".join(solved["moves"])
    assert page.locator("#click-end").get_attribute("data-cleared") == "1"
    page.locator("#click-movelist li button").first.click()  # back after the first click
    wait_idle(page, "clickomania")
    assert fragment(page)["moves"] == solved["moves"][0]
    page.screenshot(path=str(screenshots / "clickomania-replay.png"), full_page=True)
    for _ in solved["moves"][1:]:
        page.locator("#click-step").click()
        wait_idle(page, "clickomania")
    assert page.locator("#click-end").get_attribute("data-cleared") == "1"
    page.locator("#click-step").click()  # nothing left to step: said, not silent
    page.locator("#status-clickomania", has_text="nothing to redo").wait_for(timeout=5_000)
    # a click off the solution drops it: its sentence and the clicks ahead
    page.locator("#click-movelist li button").first.click()
    wait_idle(page, "clickomania")
    assert page.locator("#click-solution").inner_text()
    st = call_api("clickomania/state", {"board": board, "moves": solved["moves"][:1]})
    other = next(g for g in st["legal_moves"] if solved["moves"][1] not in g["squares"])
    click_square(page, "click-board", other["square"])
    wait_idle(page, "clickomania")
    assert page.locator("#click-solution").inner_text() == ""
    assert page.locator("#click-movelist li.future").count() == 0


def test_a_failed_request_says_so_and_keeps_the_position(page, server_url, screenshots):
    start = "xoxo/oxox/xoxo"
    page.goto(f"{server_url}/#clobber?board={start}&first=black&mode=computer&human=black")
    wait_idle(page, "clobber")
    # the server stops answering: the page says so, and the move is not kept
    page.route("**/api/clobber/state", lambda route: route.abort())
    play_move(page, "clobber-board", "a1-b1")
    wait_idle(page, "clobber")
    status = page.locator("#status-clobber")
    assert "does not answer" in status.inner_text()
    assert "error" in (status.get_attribute("class") or "")
    assert not fragment(page).get("moves")
    page.unroute("**/api/clobber/state")
    play_move(page, "clobber-board", "c1-b1")  # played from the position on the screen
    wait_idle(page, "clobber")
    assert fragment(page)["moves"].split(",")[0] == "c1-b1"
    assert len(fragment(page)["moves"].split(",")) == 2  # and the computer answered
    # the computer's reply fails: the page says so; a click on the board asks again
    page.route("**/api/clobber/reply", lambda route: route.abort())
    human_move = page.evaluate("""async () => {
        const h = new URLSearchParams(location.hash.split('?')[1]);
        const r = await fetch('/api/clobber/state', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({board: h.get('board'), moves: h.get('moves').split(','),
                                  first: 'black'})});
        return (await r.json()).legal_moves[0];
    }""")
    play_move(page, "clobber-board", human_move)
    wait_idle(page, "clobber")
    assert "the computer could not move" in status.inner_text()
    page.screenshot(path=str(screenshots / "clobber-server-down.png"), full_page=True)
    moves = fragment(page)["moves"].split(",")
    assert len(moves) == 3 and moves[-1] == human_move
    page.unroute("**/api/clobber/reply")
    click_square(page, "clobber-board", "a1")
    wait_idle(page, "clobber")
    assert len(fragment(page)["moves"].split(",")) == 4
    assert page.locator("#clobber-why").inner_text().startswith("The computer played")
    assert "error" not in (status.get_attribute("class") or "")


@pytest.mark.parametrize("tab,url,first,keys,moves", [
    ("impartial", "impartial?board=xoxoxo&mode=human", "a1", ["Enter", "ArrowRight", "Enter"],
     "a1-b1"),
    ("solitaire", "solitaire?board=xoxo/oxox&first=any&rules=sc", "a1",
     ["ArrowDown", "Enter", "ArrowUp", "Enter"], "a2-a1"),
    # Clickomania's rows count from the bottom: the top-left block is a2
    ("clickomania", "clickomania?board=1122/1122", "a2", ["ArrowRight", "ArrowRight", " "],
     "c2"),
])
def test_keyboard_only_play(page, server_url, tab, url, first, keys, moves):
    page.goto(f"{server_url}/#{url}")
    wait_idle(page, tab)
    page.locator(f"#tab-{tab}").focus()
    page.keyboard.press("Tab")  # from the tab to the board's top-left square
    assert page.evaluate("document.activeElement.dataset.square") == first
    for key in keys:
        page.keyboard.press(key)
    wait_idle(page, tab)
    assert fragment(page)["moves"] == moves
    page.keyboard.press("u")
    wait_idle(page, tab)
    assert not fragment(page).get("moves")
    if tab != "clickomania":  # Escape cancels a selected stone
        page.keyboard.press("Enter")
        assert page.locator(f"#{tab}-board .sel").count() == 1
        page.keyboard.press("Escape")
        assert page.locator(f"#{tab}-board .sel").count() == 0
    page.keyboard.press("r")
    wait_idle(page, tab)
    assert fragment(page)["moves"] == moves


def test_every_tab_restores_from_its_fragment(page, server_url, call_api):
    impartial = call_api("grundy/state", {"board": "xoxo.ox", "moves": ["a1-b1"]})
    page.goto(f"{server_url}/#impartial?board=xoxo.ox&moves=a1-b1&mode=human")
    wait_idle(page, "impartial")
    assert page.locator("#tab-impartial").get_attribute("aria-selected") == "true"
    assert page.locator("#impartial-board .stone").count() == sum(
        impartial["board"].count(c) for c in "xo")
    assert page.locator("#impartial-movelist li").count() == 1
    assert page.locator("#impartial-mode").input_value() == "human"
    page.goto(f"{server_url}/#solitaire?board=xoxo/oxox&moves=a1-b1&first=black&rules=sc2")
    wait_idle(page, "solitaire")
    assert page.locator("#solitaire-rules").input_value() == "sc2"
    assert page.locator("#solitaire-first").input_value() == "black"
    assert page.locator("#solitaire-left").get_attribute("data-value") == "7"
    assert page.locator("#solitaire-movelist li").count() == 1
    page.goto(f"{server_url}/#clickomania?board=1122/1122&moves=a1")
    wait_idle(page, "clickomania")
    clicked = call_api("clickomania/state", {"board": "1122/1122", "moves": ["a1"]})
    assert page.locator("#click-score").get_attribute("data-value") == str(clicked["score"])
    assert page.locator("#click-board [data-square]").count() == clicked["blocks_left"]
    page.goto(f"{server_url}/#cgt?expr=%5E*")
    wait_idle(page, "cgt")
    assert page.locator("#cgt-value").get_attribute("data-value") == "^*"
    assert page.locator("#cgt-input").input_value() == "^*"
    page.reload()
    wait_idle(page, "cgt")
    assert page.locator("#cgt-value").get_attribute("data-value") == "^*"


@pytest.mark.parametrize("expr,mean,temperature", [
    ("{2|-1}", "1/2", "3/2"), ("+-1", "0", "1"), ("^*", "0", "0"), ("{3|{2|0}}", "2", "1"),
])
def test_cgt_thermographs(page, server_url, expr, mean, temperature):
    # {a|b} with a >= b has mean (a+b)/2 and temperature (a-b)/2; ^* is infinitesimal;
    # {3|{2|0}} = {3|1+-1}: its walls 3 - t and 2 meet at t = 1 (Winning Ways ch. 6)
    page.goto(f"{server_url}/#cgt?expr={urllib.parse.quote(expr)}")
    wait_idle(page, "cgt")
    assert page.locator("#cgt-mean").inner_text() == mean
    assert page.locator("#cgt-temperature").inner_text() == temperature
    assert page.locator("#cgt-thermograph svg").count() == 1


def test_every_tab_fits_a_phone(browser, server_url, screenshots):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        for tab, url in [("impartial", "impartial?board=xoxoxoxoxoxo"),
                         ("solitaire", "solitaire?board=xoxo/oxox/xoxo/oxox"),
                         ("clickomania", "clickomania?board=" + "/".join(["123412341234"] * 8)),
                         ("cgt", "cgt?expr=%7B2%7C-1%7D")]:
            page.goto(f"{server_url}/#{url}")
            wait_idle(page, tab)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, tab
            side = page.locator(f"#panel-{tab} > .side").bounding_box()
            play = page.locator(f"#panel-{tab} > .play").bounding_box()
            assert side["y"] >= play["y"] + play["height"] - 1, tab
            page.screenshot(path=str(screenshots / f"{tab}-phone.png"), full_page=True)
    finally:
        context.close()


def test_clickomania_standard_chooser_follows_the_board(page, server_url, call_api):
    boards = call_api_get(server_url, "samegame/boards")["boards"]
    third = boards[2]
    page.goto(f"{server_url}/#clickomania?board={third['board']}")
    wait_idle(page, "clickomania")
    page.locator('#click-standard option[value="3"]').wait_for(state="attached")
    assert page.locator("#click-standard").input_value() == "3"
    assert page.locator("#click-rows").input_value() == str(third["rows"])
    assert page.locator("#click-cols").input_value() == str(third["cols"])
    page.locator("#click-random").click()  # a board of none of them
    wait_idle(page, "clickomania")
    assert page.locator("#click-standard").input_value() == ""


def call_api_get(server_url: str, name: str) -> dict:
    """GET /api/``name``: the answer object."""
    with urllib.request.urlopen(f"{server_url}/api/{name}", timeout=60) as resp:
        return json.loads(resp.read())


def test_the_page_says_when_the_computer_thinks(page, server_url):
    # 6 x 6 is not solved within the computer's 2 s: it searches for its whole time
    start = "/".join(["xoxoxo", "oxoxox"] * 3)
    page.goto(f"{server_url}/#clobber?board={start}&first=black&mode=computer&human=white")
    status = page.locator("#status-clobber", has_text="the computer is thinking")
    status.wait_for(timeout=10_000)
    assert page.locator("#clobber-turn").inner_text() == "Black to move (the computer)."
    click_square(page, "clobber-board", "b1")  # the human waits for the computer
    page.locator("#status-clobber", has_text="wait: it is the computer's move").wait_for()
    wait_idle(page, "clobber")
    assert page.locator("#clobber-why").inner_text().startswith("The computer played")
    assert page.locator("#clobber-turn").inner_text() == "White to move (you)."
    assert len(fragment(page)["moves"].split(",")) == 1


def test_a_server_that_hangs_is_reported(browser, server_url):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.add_init_script("window.clobbermaniaAnswerTimeoutMs = 1500")
        page.goto(f"{server_url}/#solitaire?board=xoxo/oxox&first=any&rules=sc")
        wait_idle(page, "solitaire")
        assert page.title() == "Solitaire · clobbermania"
        page.route("**/api/solitaire/state", lambda route: None)  # never answered
        play_move(page, "solitaire-board", "a1-b1")
        page.locator("#status-solitaire", has_text="did not answer within 1.5 s").wait_for(
            timeout=10_000)
        wait_idle(page, "solitaire")
        assert not fragment(page).get("moves")
        assert page.locator("#solitaire-left").get_attribute("data-value") == "8"
    finally:
        context.close()


def test_nothing_is_loaded_from_outside_the_server(page, server_url):
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    for tab in ("clobber", "impartial", "solitaire", "clickomania", "cgt"):
        page.goto(f"{server_url}/#{tab}")
        wait_idle(page, tab)
    outside = [u for u in requested
               if not u.startswith((server_url + "/", "data:", "blob:"))]
    assert not outside and any("/api/" in u for u in requested), outside


def _falling(page) -> list[list]:
    """[square, computed transform] of every block drawn moving (class 'falling')."""
    return page.locator("#click-board [data-square].falling").evaluate_all(
        "els => els.map(e => [e.dataset.square, getComputedStyle(e).transform])")


def _drawn_board(page, rows: int, cols: int) -> str:
    """The board text of the blocks drawn (their data-square and data-color)."""
    grid = [["."] * cols for _ in range(rows)]
    for square, color in page.locator("#click-board [data-square]").evaluate_all(
            "els => els.map(e => [e.dataset.square, e.dataset.color])"):
        grid[int(square[1:]) - 1][ord(square[0]) - ord("a")] = "0123456789"[int(color)]
    return "/".join("".join(row) for row in grid)


def test_clickomania_blocks_fall_and_columns_close_as_the_server_says(page, server_url,
                                                                       call_api):
    # a3 takes the 1s of column b and a3: a1 and a2 fall, columns c and d close to the left
    board = "31../21../1123"
    after = call_api("clickomania/state", {"board": board, "moves": ["a3"]})
    assert after["fell"] == {"a1": "a2", "a2": "a3", "c3": "b3", "d3": "c3"}
    page.goto(f"{server_url}/#clickomania?board={board}")
    wait_idle(page, "clickomania")
    page.locator('#click-board [data-square="a3"]').click()
    seen: dict[str, set[str]] = {}
    for _ in range(200):  # sample the drawing until the tab is idle again (the fall ended)
        for square, transform in _falling(page):
            seen.setdefault(square, set()).add(transform)
        if page.locator('#panel-clickomania[data-busy="0"]').count():
            break
        page.wait_for_timeout(15)
    # exactly the blocks the server says moved were animated, each away from its place
    assert set(seen) == set(after["fell"].values())
    assert all(any(t not in ("none", "matrix(1, 0, 0, 1, 0, 0)") for t in ts)
               for ts in seen.values())
    # a block that falls moves only down, one whose column closes only to the left
    for src, dst in after["fell"].items():
        offsets = [[float(x) for x in t[7:-1].split(",")[4:]] for t in seen[dst]
                   if t.startswith("matrix(")]
        if src[0] == dst[0]:
            assert all(dx == 0 and dy <= 0 for dx, dy in offsets), (src, dst, offsets)
        else:
            assert all(dy == 0 and dx >= 0 for dx, dy in offsets), (src, dst, offsets)
    wait_idle(page, "clickomania")
    assert _falling(page) == [] and _drawn_board(page, 3, 4) == after["board"]
    assert page.locator("#click-board [data-square]").evaluate_all(
        "els => els.filter(e => getComputedStyle(e).transform !== 'none').length") == 0
    # less motion asked: the board after is drawn at once, nothing moves
    page.emulate_media(reduced_motion="reduce")
    page.locator("#click-undo").click()
    wait_idle(page, "clickomania")
    page.locator('#click-board [data-square="a3"]').click()
    moved = 0
    for _ in range(200):
        moved += len(_falling(page))
        if page.locator('#panel-clickomania[data-busy="0"]').count():
            break
        page.wait_for_timeout(15)
    wait_idle(page, "clickomania")
    assert moved == 0 and _drawn_board(page, 3, 4) == after["board"]
