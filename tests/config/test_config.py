"""The settings: every PERMITS_* variable read in one place, with its
default, and nothing else in the project reading the environment for one."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import config
from config import BadSetting


def test_the_default_database_and_uploads_are_in_the_users_data_directory(tmp_path):
    s = config.load({"XDG_DATA_HOME": str(tmp_path), "USER": "pat"})
    assert s.data_dir == tmp_path / "permits"
    assert s.store_url() == f"sqlite:///{tmp_path}/permits/permits.db"
    assert s.store_url("sqlite:///x.db") == "sqlite:///x.db"
    assert s.uploads_dir == tmp_path / "permits" / "uploads"
    assert s.user == "pat" and s.smtp_url is None and s.mail_from == "permits@localhost"


def test_without_xdg_the_data_directory_is_under_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert config.load({}).data_dir == Path(tmp_path) / ".local" / "share" / "permits"


def test_each_setting_moves_what_it_names():
    s = config.load(
        {
            "PERMITS_DATA_DIR": "/srv/permits",
            "PERMITS_DATABASE_URL": "postgresql+psycopg://u@/db",
            "PERMITS_UPLOADS_DIR": "/srv/plans",
            "PERMITS_UPLOAD_MAX_MB": "2.5",
            "PERMITS_SMTP_URL": "smtp://mail:25",
            "PERMITS_MAIL_FROM": "conservation@canton.example",
            "PERMITS_SECRET_KEY": "k",
            "PERMITS_TRUSTED_PROXIES": "10.0.0.5",
            "PERMITS_DASK_ADDRESS": "tcp://10.0.0.9:8786",
            "PERMITS_USER": "clerk",
            "PERMITS_FORM_MAX_KB": "64",
            "PERMITS_HTTPS": "yes",
        }
    )
    assert s.form_max_bytes == 64 * 1024 and s.https is True
    assert s.data_dir == Path("/srv/permits") and s.store_url() == "postgresql+psycopg://u@/db"
    assert s.uploads_dir == Path("/srv/plans") and s.upload_max_bytes == int(2.5 * 1024 * 1024)
    assert (s.smtp_url, s.mail_from, s.secret_key) == ("smtp://mail:25", "conservation@canton.example", "k")
    assert (s.trusted_proxies, s.dask_address, s.user) == ("10.0.0.5", "tcp://10.0.0.9:8786", "clerk")
    assert s.sweep_ledger == Path("/srv/permits/sweep-ledger.sqlite") and s.prefect_home == Path("/srv/permits/prefect")


@pytest.mark.parametrize("value", ["lots", "0", "-3", "1e9"])
def test_an_upload_limit_that_is_not_a_size_is_refused_naming_the_setting(value):
    with pytest.raises(BadSetting, match="PERMITS_UPLOAD_MAX_MB"):
        config.load({"PERMITS_UPLOAD_MAX_MB": value})


def test_a_bad_setting_is_one_line_and_exit_2_from_the_command_line(monkeypatch, capsys):
    from cli.main import main

    monkeypatch.setenv("PERMITS_UPLOAD_MAX_MB", "lots")
    assert main(["list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("permits: error: PERMITS_UPLOAD_MAX_MB='lots'") and err.count("\n") == 1


def test_the_form_limit_and_https_have_their_defaults():
    s = config.load({})
    assert s.form_max_bytes == 512 * 1024 and s.https is False


@pytest.mark.parametrize("value", ["lots", "²", "8", "1.5", "-64", "2000000"])
def test_a_form_limit_that_is_not_a_whole_number_of_kilobytes_is_refused_naming_the_setting(value):
    with pytest.raises(BadSetting, match="PERMITS_FORM_MAX_KB"):
        config.load({"PERMITS_FORM_MAX_KB": value})


@pytest.mark.parametrize("value", ["maybe", "si", "2"])
def test_an_https_setting_that_is_not_yes_or_no_is_refused_naming_the_setting(value):
    with pytest.raises(BadSetting, match="PERMITS_HTTPS=.*yes or no"):
        config.load({"PERMITS_HTTPS": value})


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(str.strip)


@given(
    database_url=st.none() | _TEXT,
    megabytes=st.integers(1, 10_000 * 1024 * 1024).map(lambda b: b / (1024 * 1024)),
    smtp_url=st.none() | _TEXT,
    secret_key=st.none() | _TEXT,
    proxies=st.sampled_from(["", "10.0.0.1", "10.0.0.0/8, 192.0.2.7"]),
    dask=st.none() | _TEXT,
    user=_TEXT,
    mail_from=_TEXT,
)
def test_the_environment_handed_to_a_worker_reads_back_as_the_same_settings(
    database_url, megabytes, smtp_url, secret_key, proxies, dask, user, mail_from
):
    """What ``permits serve --workers N`` hands each worker: load() there
    gives the settings the command had, whatever they were."""
    settings = config.load(
        {
            "PERMITS_DATA_DIR": "/srv/permits",
            "PERMITS_DATABASE_URL": database_url or "",
            "PERMITS_UPLOADS_DIR": "/srv/plans",
            "PERMITS_UPLOAD_MAX_MB": repr(megabytes),
            "PERMITS_SMTP_URL": smtp_url or "",
            "PERMITS_SECRET_KEY": secret_key or "",
            "PERMITS_TRUSTED_PROXIES": proxies,
            "PERMITS_DASK_ADDRESS": dask or "",
            "PERMITS_USER": user,
            "PERMITS_MAIL_FROM": mail_from,
        }
    )
    handed = config.environment(settings)
    assert config.load(handed) == settings
    assert set(handed) == {s.name for s in config.SETTINGS}


def test_the_environment_handed_to_a_worker_replaces_what_the_parent_had():
    """An unset setting is handed as "" (unset), so a worker never reads a
    value the command did not use."""
    settings = config.load({"PERMITS_DATA_DIR": "/srv/permits", "USER": "pat"})
    handed = config.environment(settings._replace(secret_key="one key for all"))
    assert handed["PERMITS_SECRET_KEY"] == "one key for all" and handed["PERMITS_SMTP_URL"] == ""
    assert config.load({"PERMITS_SMTP_URL": "smtp://old.example", **handed}).smtp_url is None


def test_the_base_url_and_the_days_limits_have_their_defaults_and_move():
    s = config.load({})
    assert s.base_url == "http://127.0.0.1:8000" and s.applications_per_day == 10
    assert s.upload_bytes_per_day == 100 * 1024 * 1024
    s = config.load(
        {
            "PERMITS_BASE_URL": "https://permits.canton.example/workbench/",
            "PERMITS_APPLICATIONS_PER_DAY": "3",
            "PERMITS_UPLOAD_MB_PER_DAY": "40",
        }
    )
    assert s.base_url == "https://permits.canton.example/workbench"
    assert (s.applications_per_day, s.upload_bytes_per_day) == (3, 40 * 1024 * 1024)


@pytest.mark.parametrize(
    "value",
    [
        "permits.canton.example",
        "ftp://permits.canton.example",
        "https://",
        "https://a.example/?next=x",
        "https://u:p@a.example",
        "https://a.example:port",
        "https://a.example/#x",
        "https://a .example",
    ],
)
def test_a_base_url_that_is_not_a_web_address_is_refused_naming_the_setting(value):
    with pytest.raises(BadSetting, match="PERMITS_BASE_URL"):
        config.load({"PERMITS_BASE_URL": value})


@pytest.mark.parametrize("name", ["PERMITS_APPLICATIONS_PER_DAY", "PERMITS_UPLOAD_MB_PER_DAY"])
@pytest.mark.parametrize("value", ["0", "-1", "many", "1.5", "²"])
def test_a_days_limit_that_is_not_a_positive_whole_number_is_refused_naming_the_setting(name, value):
    with pytest.raises(BadSetting, match=name):
        config.load({name: value})
