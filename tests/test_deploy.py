"""deploy/: the image's start command and settings, the compose file and the proxy's routes.

Nothing here builds an image or talks to Docker (this machine has no Docker daemon and no
registry): the files are parsed, and the image's exact command is run through Parlour's own
command line with the environment the compose file gives, stopping short of serving.
"""

from __future__ import annotations

import fnmatch
import http.server
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import yaml

import parlour.server
import parlour.store
from parlour.cli.main import main
from parlour.server import Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
APPS = ("app1", "app2")


# --- reading the files ------------------------------------------------------------------------


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's variable substitution: ``${NAME}``, ``${NAME:-default}``, ``$$``."""

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, default = match.group(1), match.group(3)
        return env.get(name) or (default if default is not None else "")

    return re.sub(r"\$\$|\$\{(\w+)(:-([^}]*))?\}", one, text)


def compose(env: dict[str, str] | None = None) -> dict[str, Any]:
    text = interpolate((DEPLOY / "compose.yaml").read_text(), env or {})
    loaded: dict[str, Any] = yaml.safe_load(text)
    return loaded


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) pairs, continuation lines joined and comments dropped."""
    text = (DEPLOY / "Dockerfile").read_text()
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    return [
        (parts[0].upper(), parts[1].strip() if len(parts) > 1 else "")
        for parts in (ln.strip().split(None, 1) for ln in joined.splitlines() if ln.strip())
    ]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in dockerfile():
        if instruction == "ENV":
            for word in shlex.split(args):
                name, _, value = word.partition("=")
                env[name] = value
    return env


def exec_form(instruction: str) -> list[str]:
    """The JSON (exec) form of the last ``CMD``/``ENTRYPOINT``, or [] if there is none."""
    found = [args for name, args in dockerfile() if name == instruction]
    if not found:
        return []
    command = json.loads(found[-1])
    assert isinstance(command, list), f"{instruction} in exec form (a JSON list)"
    return [str(word) for word in command]


def nginx(text: str) -> list[Any]:
    """nginx's configuration as nested ``(name, args, block or None)`` tuples."""
    tokens = re.findall(r"'[^']*'|\"[^\"]*\"|[{};]|[^\s{};]+", re.sub(r"#.*", "", text))
    position = 0

    def block(top: bool) -> list[Any]:
        nonlocal position
        items: list[Any] = []
        words: list[str] = []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == "}":
                assert not top and not words, f"unexpected }} after {words}"
                return items
            if token == ";":
                items.append((words[0], words[1:], None))
                words = []
            elif token == "{":
                items.append((words[0], words[1:], block(False)))
                words = []
            else:
                words.append(token.strip("'\""))
        assert top and not words, f"unterminated block or directive {words}"
        return items

    return block(True)


def directives(items: list[Any], name: str) -> list[tuple[list[str], list[Any] | None]]:
    return [(args, inner) for key, args, inner in items if key == name]


def setting_names() -> set[str]:
    return {f"PARLOUR_{f.name.upper()}" for f in fields(Settings)}


def unknown_settings(env: dict[str, str]) -> list[str]:
    return sorted(
        name for name in env if name.startswith("PARLOUR_") and name not in setting_names()
    )


# --- the compose file --------------------------------------------------------------------------


def test_compose_has_postgres_redis_two_apps_and_a_proxy_with_healthchecks() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", *APPS, "proxy"}
    assert services["postgres"]["image"] == "postgres:15"
    assert services["redis"]["image"] == "redis:7"
    assert "pg_isready" in services["postgres"]["healthcheck"]["test"]
    assert services["redis"]["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    assert "/api/health" in " ".join(services["proxy"]["healthcheck"]["test"])
    for name in APPS:  # the apps' healthcheck is the image's own
        app = services[name]
        assert "healthcheck" not in app
        assert (ROOT / DEPLOY.joinpath(app["build"]["context"])).resolve() == ROOT
        assert (ROOT / app["build"]["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
        for needed in ("postgres", "redis"):
            assert app["depends_on"][needed] == {"condition": "service_healthy"}
    healthcheck = [args for name, args in dockerfile() if name == "HEALTHCHECK"]
    assert len(healthcheck) == 1 and "/api/health" in healthcheck[0]
    proxy_needs = services["proxy"]["depends_on"]
    assert proxy_needs == {name: {"condition": "service_healthy"} for name in APPS}


def test_both_apps_share_one_database_and_one_redis() -> None:
    for env in ({}, {"POSTGRES_PASSWORD": "s3cret"}):
        services = compose(env)["services"]
        first, second = (services[name]["environment"] for name in APPS)
        assert first == second
        pg = services["postgres"]["environment"]
        password = env.get("POSTGRES_PASSWORD", "parlour")
        assert pg["POSTGRES_PASSWORD"] == password
        assert first["PARLOUR_DB"] == (
            f"postgresql://{pg['POSTGRES_USER']}:{password}@postgres:5432/{pg['POSTGRES_DB']}"
        )
        assert first["PARLOUR_REDIS"] == "redis://redis:6379/0"


def test_every_parlour_variable_in_deploy_is_a_real_setting() -> None:
    services = compose()["services"]
    for env in (image_env(), *(services[name]["environment"] for name in APPS)):
        assert unknown_settings(env) == []
    assert image_env().keys() >= {"PARLOUR_HOST", "PARLOUR_PORT"}
    # The check catches a typo.
    assert unknown_settings({"PARLOUR_REDIS_URL": "redis://x", "PARLOUR_DB": "x"}) == [
        "PARLOUR_REDIS_URL"
    ]


# --- the image ---------------------------------------------------------------------------------


def test_image_is_python_311_slim_with_both_extras_run_by_an_unprivileged_user() -> None:
    steps = dockerfile()
    assert steps[0] == ("FROM", "python:3.11-slim")
    installs = [args for name, args in steps if name == "RUN" and "pip install" in args]
    assert len(installs) == 1
    assert "-c constraints.txt" in installs[0] and "'.[pg,cluster]'" in installs[0]
    users = [args for name, args in steps if name == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_the_build_context_holds_what_the_image_copies_and_nothing_else() -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def ignored(path: str) -> bool:
        parts = path.split("/")
        verdict = False
        for pattern in patterns:  # Docker's rule: the last matching pattern wins
            negate, glob = pattern.startswith("!"), pattern.lstrip("!")
            if glob.startswith("**/"):
                hit = any(fnmatch.fnmatch(part, glob[3:]) for part in parts)
            else:
                hit = any(
                    fnmatch.fnmatch("/".join(parts[:n]), glob) for n in range(1, len(parts) + 1)
                )
            if hit:
                verdict = not negate
        return verdict

    copies = [args.split()[:-1] for name, args in dockerfile() if name == "COPY"]
    sources = [source for group in copies for source in group]
    assert sources, "the image copies the project in"
    for source in sources:
        assert (ROOT / source).exists(), source
        assert not ignored(source), source
    assert not ignored("src/parlour/web/index.html")
    for left_out in (".venv/bin/python", ".git/HEAD", "tests/test_deploy.py", "parlour.db",
                     "src/parlour/__pycache__/x.pyc"):  # fmt: skip
        assert ignored(left_out), left_out


@pytest.mark.parametrize("app", APPS)
def test_image_command_with_the_compose_environment_gives_the_intended_settings(
    app: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = exec_form("ENTRYPOINT") + exec_form("CMD")
    assert command[:2] == ["parlour", "serve"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["parlour"] == "parlour.cli.main:main"  # the function called below
    services = compose({"POSTGRES_PASSWORD": "s3cret"})["services"]
    for name in [name for name in os.environ if name.startswith("PARLOUR_")]:
        monkeypatch.delenv(name)
    for name, value in {**image_env(), **services[app]["environment"]}.items():
        monkeypatch.setenv(name, str(value))
    opened: list[str] = []
    served: list[Settings] = []

    class Opened:
        def close(self) -> None:
            pass

    def open_store(db: str, busy_timeout_s: float) -> Opened:
        opened.append(db)
        return Opened()

    monkeypatch.setattr(parlour.store, "open_store", open_store)
    monkeypatch.setattr(parlour.server, "serve", served.append)
    assert main(command[1:]) == 0
    [settings] = served
    assert opened == [settings.db]
    assert (settings.host, settings.port) == ("0.0.0.0", 8000)
    assert settings.db == "postgresql://parlour:s3cret@postgres:5432/parlour"
    assert settings.redis == "redis://redis:6379/0"
    assert settings.rtt_kernel is False
    proxy_address = services["proxy"]["networks"]["parlour"]["ipv4_address"]
    assert settings.trusted_proxies == proxy_address
    from parlour.server.run import uvicorn_options

    options = uvicorn_options(settings)
    assert options["proxy_headers"] and options["forwarded_allow_ips"] == [proxy_address]


def test_image_healthcheck_command_passes_on_a_200_and_fails_without_a_server() -> None:
    [args] = [args for name, args in dockerfile() if name == "HEALTHCHECK"]
    command = json.loads(args[args.index("CMD") + 3 :].strip())
    assert command[0] == "python"

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/api/health" else 404)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Health) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = str(server.server_address[1])
        run = [sys.executable, *command[1:]]
        ok = subprocess.run(run, env={"PARLOUR_PORT": port}, capture_output=True, timeout=30)
        server.shutdown()
    assert ok.returncode == 0, ok.stderr
    down = subprocess.run(run, env={"PARLOUR_PORT": port}, capture_output=True, timeout=30)
    assert down.returncode != 0


# --- the proxy ---------------------------------------------------------------------------------


def test_proxy_balances_http_and_sends_a_table_s_websockets_to_one_app() -> None:
    proxy = compose()["services"]["proxy"]
    mounts = {volume.split(":")[1]: volume.split(":")[0] for volume in proxy["volumes"]}
    config = nginx((DEPLOY / mounts["/etc/nginx/nginx.conf"]).read_text())
    [(_, http_block)] = directives(config, "http")
    assert http_block is not None
    upstreams = {args[0]: inner or [] for args, inner in directives(http_block, "upstream")}
    assert set(upstreams) == {"parlour", "parlour_tables"}
    port = image_env()["PARLOUR_PORT"]
    for upstream in upstreams.values():
        servers = {args[0] for args, _ in directives(upstream, "server")}
        assert servers == {f"{name}:{port}" for name in APPS}
    # HTTP round robin; every socket of a table to one process (the table follows it there)
    assert directives(upstreams["parlour"], "hash") == []
    assert directives(upstreams["parlour_tables"], "hash") == [(["$uri", "consistent"], None)]
    [(map_args, mapping)] = directives(http_block, "map")
    assert map_args == ["$http_upgrade", "$connection_upgrade"] and mapping is not None
    assert ("default", ["upgrade"], None) in mapping
    [(_, server)] = directives(http_block, "server")
    assert server is not None and directives(server, "listen") == [(["80"], None)]
    assert "80" in {port.split(":")[-1] for port in proxy["ports"]}
    locations = {args[0]: inner for args, inner in directives(server, "location")}
    assert set(locations) == {"/", "/ws/"}
    for path, inner in locations.items():
        assert inner is not None
        upstream_name = "parlour_tables" if path == "/ws/" else "parlour"
        assert directives(inner, "proxy_pass") == [([f"http://{upstream_name}"], None)]
        assert directives(inner, "proxy_http_version") == [(["1.1"], None)]
        headers = {args[0]: args[1] for args, _ in directives(inner, "proxy_set_header")}
        assert headers["X-Forwarded-For"] == "$remote_addr", path
        if path == "/ws/":
            assert headers["Upgrade"] == "$http_upgrade"
            assert headers["Connection"] == "$connection_upgrade"
            [(timeout, _)] = directives(inner, "proxy_read_timeout")
            assert timeout == ["1h"]  # a quiet game's socket is not cut after nginx's 60 s


def test_nginx_reader_refuses_a_broken_file() -> None:
    assert nginx("a 1; b { c 2; }") == [("a", ["1"], None), ("b", [], [("c", ["2"], None)])]
    for broken in ("http { server { listen 80; }", "http { listen 80 }", "listen 80", "}"):
        with pytest.raises(AssertionError):
            nginx(broken)
