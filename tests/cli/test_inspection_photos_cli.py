"""``permits record ID inspected ... --photo FILE`` (Canton 16-12 §10.2):
the same service as the DPW schedule's form (services.inspections), the same
event and stored photos for the same act, the same refusals: a text file
named x.jpg refused in words, exit 2, no event and no file written; a
fourth photo refused; photos only on an inspection."""

import re

import pytest
import storekit
from storekit import snapshot
from webkit import TODAY, client, login, make_store

from cli.main import main
from models.store.uploads import Uploads
from web.deps import context_of

FID = "CAN-SOP-2026-001"
AT = f"{TODAY.isoformat()}T10:15"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(200)
JPEG = b"\xff\xd8\xff\xe0" + bytes(300)
ACT = {
    "stage": "pre-backfill",
    "result": "fail",
    "notes": "north end",
    "defect": "bedding not compacted",
    "reinspect": "2026-12-07",
}


def _dig(store):
    for raw in (
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
        {"type": "permit-issued", "date": "2026-12-01"},
        {"type": "work-noticed", "at": "2026-12-01T09:00"},
        {"type": "excavation-started", "date": "2026-12-02"},
    ):
        storekit.append(store, FID, raw, by="t")


def _argv(url, *photos, date=AT, **fields):
    argv = ["record", FID, "inspected", "--date", date, "--as-of", TODAY.isoformat(), "--db", url, "--by", "dpw@canton.example"]
    argv += [f"{k}={v}" for k, v in {**ACT, **fields}.items()]
    for p in photos:
        argv += ["--photo", str(p)]
    return argv


def _photos(folder, *named):
    folder.mkdir(exist_ok=True)
    out = []
    for name, data in named:
        (folder / name).write_bytes(data)
        out.append(folder / name)
    return out


def _files(folder):
    return sorted(p.name for p in folder.glob("*")) if folder.exists() else []


def _recorded(store, uploads):
    raw = dict(store.history(FID)[-1]["raw"])
    stored = [uploads.read(t, filing_id=FID) for t in raw.pop("photos")]
    return raw, [(row.original_name, row.media_type, data) for row, data in stored]


@pytest.fixture
def uploads_dir(tmp_path, monkeypatch):
    folder = tmp_path / "uploads"
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(folder))
    return folder


def test_the_command_line_and_the_schedule_record_the_same_inspection_with_the_same_photos(
    db_url, second_url, uploads_dir, tmp_path, capsys
):
    cli_store, web_store = make_store(db_url), make_store(second_url)
    _dig(cli_store)
    _dig(web_store)
    files = _photos(tmp_path / "camera", ("trench.png", PNG), ("north.jpg", JPEG))
    assert main(_argv(db_url, *files)) == 0, capsys.readouterr().err
    assert "(inspected, 2 photo(s)); state excavating" in capsys.readouterr().out

    web = client(web_store)
    login(web, "canton-dpw")
    page = web.get("/schedule").text
    form = page.split('action="/schedule/inspections"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
    r = web.post(
        "/schedule/inspections",
        data={**fields, **ACT, "time": "10:15"},
        files=[("photos", ("trench.png", PNG, "image/png")), ("photos", ("north.jpg", JPEG, "image/jpeg"))],
    )
    assert r.status_code == 303, r.text[-2000:]

    by_cli = _recorded(cli_store, Uploads(cli_store, uploads_dir, 10 * 1024 * 1024))
    by_web = _recorded(web_store, context_of(web.app).uploads)
    assert by_cli == by_web
    assert by_cli[0]["at"] == f"{TODAY.isoformat()}T10:15" and by_cli[0]["defect"] == "bedding not compacted"
    assert by_cli[1] == [("trench.png", "image/png", PNG), ("north.jpg", "image/jpeg", JPEG)]
    assert cli_store.history(FID)[-1]["recorded_by"] == web_store.history(FID)[-1]["recorded_by"] == "dpw@canton.example"
    cli_store.engine.dispose()
    web_store.engine.dispose()


def test_a_text_file_named_jpg_is_refused_in_words_with_no_event_and_no_file_written(db_url, uploads_dir, tmp_path, capsys):
    store = make_store(db_url)
    _dig(store)
    (text,) = _photos(tmp_path / "camera", ("x.jpg", b"just some notes, not a photo\n"))
    (good,) = _photos(tmp_path / "camera", ("trench.png", PNG))
    before, files = snapshot(db_url), _files(uploads_dir)
    assert main(_argv(db_url, good, text)) == 2
    err = capsys.readouterr().err
    assert err == "permits: error: x.jpg: the file is not a JPEG or PNG photo (its content says otherwise)\n"
    assert snapshot(db_url) == before and _files(uploads_dir) == files
    store.engine.dispose()


def test_a_fourth_photo_is_refused_as_the_schedule_refuses_it(db_url, uploads_dir, tmp_path, capsys):
    store = make_store(db_url)
    _dig(store)
    four = _photos(tmp_path / "camera", *((f"p{i}.png", PNG) for i in range(4)))
    before = snapshot(db_url)
    assert main(_argv(db_url, *four)) == 2
    assert "at most 3 photos an inspection" in capsys.readouterr().err
    assert snapshot(db_url) == before and _files(uploads_dir) == []
    store.engine.dispose()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["record", FID, "backfilled", "--date", "2026-12-02", "material=gravel"], "only an inspection (inspected) takes photos"),
        (["record", FID, "inspected", "--date", "2026-12-03", "stage=pre-backfill", "result=pass", "hours=2"], "field 'hours'"),
        (["record", FID, "inspected", "--date", "2026-12-03", "stage=final", "result=pass"], "does not fit a permit"),
    ],
)
def test_photos_only_on_an_inspection_with_its_own_fields_and_a_stage_that_fits(
    argv, words, db_url, uploads_dir, tmp_path, capsys
):
    store = make_store(db_url)
    _dig(store)
    (good,) = _photos(tmp_path / "camera", ("trench.png", PNG))
    before = snapshot(db_url)
    assert main([*argv, "--as-of", TODAY.isoformat(), "--db", db_url, "--photo", str(good)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert snapshot(db_url) == before and _files(uploads_dir) == []
    store.engine.dispose()
