"""The review reports in the players' languages: `nardy review --lang CODE` and Review.to_text /
to_html(lang=...) (selfplay/evaluation/review_strings.h), the same tables in the CLI and Python."""

import json
import re

import pytest

import nardy

LANGS = {"en": "Summary", "ru": "Итоги", "uk": "Підсумки", "az": "Yekun", "tr": "Özet"}


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    """A game of the default model against the heuristic: errors to mark, a mars or an oin."""
    path = tmp_path_factory.mktemp("lang") / "game.txt"
    path.write_text(nardy.play("heuristic", "default", games=1, seed=4)[0].record())
    return path


def test_every_language_in_python(game_file):
    r = nardy.review(str(game_file))
    assert r.to_text() == r.to_text(lang="en") == str(r)
    for code, summary in LANGS.items():
        text, page = r.to_text(lang=code), r.to_html(lang=code)
        assert f"\n{summary}\n" in text, code
        assert page.startswith(f'<!DOCTYPE html>\n<html lang="{code}">'), code
        assert f"<h2>{summary}</h2>" in page, code
    ru = r.to_text(lang="ru")
    assert "Разбор: default (оценка нейросетью, глубина 0)" in ru
    assert "ойн (1 очко)" in ru or "марс (2 очка)" in ru
    assert "Отмеченные ходы" in ru
    with pytest.raises(nardy.NardyError, match=r"unknown language 'de' \(known: en \(English\), ru"):
        r.to_html(lang="de")


def test_cli_lang_writes_the_text_and_the_html_the_json_stays(game_file, nardy_cli, tmp_path):
    r = nardy.review(str(game_file))
    for code in LANGS:
        html, js = tmp_path / f"{code}.html", tmp_path / f"{code}.json"
        out = nardy_cli("review", game_file, "--lang", code, "--html", html, "--json", js).stdout
        assert out == r.to_text(lang=code)
        assert html.read_text() == r.to_html(lang=code)
        assert json.loads(js.read_text()) == json.loads(r.to_json())  # marks, bands: English keys
    quiet = nardy_cli("review", game_file, "--lang", "az", "--quiet").stdout
    assert quiet.startswith("Təhlil: default") and "\nYekun\n" in quiet
    assert "Qeyd olunmuş gedişlər" not in quiet and "reytinq səviyyələri" in quiet
    bad = nardy_cli("review", game_file, "--lang", "klingon", check=False)
    assert bad.returncode == 2
    assert "--lang: unknown language 'klingon' (known: en (English), ru (Русский), uk (Українська), " \
           "az (Azərbaycanca), tr (Türkçe))" in bad.stderr


def test_summary_columns_stay_apart(game_file):
    """The summary's two players' columns are at least two spaces apart ("47.4 awful  0.0
    supernatural"), and its rows equally wide in every language (padded by code points)."""
    r = nardy.review(str(game_file))
    for code in LANGS:
        text = r.to_text(lang=code)
        start = text.index("\n" + LANGS[code] + "\n") + len(LANGS[code]) + 2
        rows = text[start:].split("\n  (")[0].split("\n")
        assert len({len(row) for row in rows}) == 1, (code, rows)
        assert len(rows) >= 10, rows
    en = r.to_text()
    p0, p1 = (f"{p.all.rating:.1f} {p.all.rating_band}" for p in r.players)
    assert re.search(r"\S  +" + re.escape(p0) + "  +" + re.escape(p1) + "\n", en), en
