"""GET /api/i18n/{lang}: the client's words in a language, each game's under its name, English beneath; and the
How to play page in a language (``?lang=``). An unknown or malformed language is English, never an error."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from damier.core import messages, registry


def test_each_language_has_every_english_key_and_every_game_under_its_name(client: TestClient) -> None:
    english = client.get("/api/i18n/en").json()
    assert english["lang"] == "en" and english["languages"] == messages.LANGUAGES
    for info in registry.all_infos():
        assert any(key.startswith(f"{info.name}.") for key in english["messages"]), info.name
    for lang in ("es", "fr"):
        reply = client.get(f"/api/i18n/{lang}")
        assert reply.status_code == 200 and reply.headers["content-language"] == lang
        words = reply.json()
        assert words["lang"] == lang and set(english["messages"]) <= set(words["messages"])
        # and the words each game declares in Python, which English says where they are declared
        extra = set(words["messages"]) - set(english["messages"])
        assert extra and all(key.split(".")[1] in ("info", "client") for key in extra)
        differs = [k for k in english["messages"] if words["messages"][k] != english["messages"][k]]
        assert len(differs) > len(english["messages"]) / 2, f"{lang} is mostly English"


@pytest.mark.parametrize(("asked", "lang"), [("es-MX", "es"), ("FR", "fr"), ("de", "en"), ("x" * 300, "en"),
                                             ("%2e%2e", "en"), ("en", "en")])
def test_an_unknown_or_malformed_language_is_english(client: TestClient, asked: str, lang: str) -> None:
    reply = client.get(f"/api/i18n/{asked}")
    assert reply.status_code == 200 and reply.json()["lang"] == lang


def test_the_words_are_revalidated_by_etag(client: TestClient) -> None:
    first = client.get("/api/i18n/fr")
    again = client.get("/api/i18n/fr", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert client.get("/api/i18n/es").headers["etag"] != first.headers["etag"]


def test_the_how_to_play_page_answers_in_the_language_asked(client: TestClient) -> None:
    for info in registry.with_feature("howto"):
        english = client.get(f"/api/catalog/{info.name}/howto").json()
        assert client.get(f"/api/catalog/{info.name}/howto?lang=xx").json() == english
        for lang in ("es", "fr"):
            page = client.get(f"/api/catalog/{info.name}/howto", params={"lang": lang}).json()
            assert page["summary"] != english["summary"], (info.name, lang)
            assert [s["title"] for s in page["sections"]] != [s["title"] for s in english["sections"]]
            # the boards, moves and events are the same in every language: only the words change
            assert [[d["board"] for d in s["diagrams"]] for s in page["sections"]] == [
                [d["board"] for d in s["diagrams"]] for s in english["sections"]]
            assert [[d["moves"] for d in s["diagrams"]] for s in page["sections"]] == [
                [d["moves"] for d in s["diagrams"]] for s in english["sections"]]
        assert client.get(f"/api/catalog/{info.name}/howto", headers={"Accept-Language": "fr-CA,fr"}).json() == (
            client.get(f"/api/catalog/{info.name}/howto?lang=fr").json())


def test_an_error_carries_its_code_and_parameters_beside_its_english(client: TestClient) -> None:
    reply = client.get("/api/games/no-such-game")
    body = reply.json()
    assert reply.status_code == 404 and body["error"] and body["code"].startswith("error.")
    english = messages.format_message(client.get("/api/i18n/en").json()["messages"][body["code"]], body["params"])
    assert english == body["error"]
    spanish = client.get("/api/i18n/es").json()["messages"][body["code"]]
    assert messages.format_message(spanish, body["params"], "es") != body["error"]


def test_the_catalog_says_each_games_declared_words_in_the_language_asked(client: TestClient) -> None:
    english = {e["name"]: e for e in client.get("/api/catalog").json()}
    spanish = {e["name"]: e for e in client.get("/api/catalog?lang=es").json()}
    french = {e["name"]: e for e in client.get("/api/catalog", headers={"Accept-Language": "fr-FR,fr"}).json()}
    assert spanish["khet"]["client"]["seats"] == ["Azul-blanco", "Rojo"] != english["khet"]["client"]["seats"]
    assert [p["label"] for p in spanish["khet"]["client"]["palette"]["pieces"]][:5] == [
        "Láser", "Rey", "Defensor", "Deflector", "Intercambiador"]
    for name in english:
        assert spanish[name]["description"] != english[name]["description"], name
        assert french[name]["description"] != english[name]["description"], name
        # the options, their values and the boards are the same in every language: only the words change
        assert [o["name"] for o in spanish[name]["options"]] == [o["name"] for o in english[name]["options"]]
        defaults = [o.get("default") for o in english[name]["options"]]
        assert [o.get("default") for o in french[name]["options"]] == defaults
        assert spanish[name]["client"].get("sample") == english[name]["client"].get("sample")


def test_a_browsers_list_of_languages_is_answered_in_the_first_the_arcade_speaks(client: TestClient) -> None:
    assert client.get("/api/i18n/de-DE,fr-CA,es").json()["lang"] == "fr"
    assert client.get("/api/i18n/de-DE,pt").json()["lang"] == "en"


def test_the_words_are_sent_gzipped_to_a_client_that_takes_it(client: TestClient) -> None:
    plain = client.get("/api/i18n/es", headers={"Accept-Encoding": "identity"})
    zipped = client.get("/api/i18n/es", headers={"Accept-Encoding": "gzip, deflate"})
    assert "content-encoding" not in plain.headers and zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) < len(plain.content) / 3
    assert zipped.json() == plain.json()  # httpx undoes the gzip
    assert zipped.headers["etag"] != plain.headers["etag"]  # two bodies, two tags
    refused = client.get("/api/i18n/es", headers={"Accept-Encoding": "gzip;q=0, br"})
    assert "content-encoding" not in refused.headers
