"""Third fresh batch (ids ``fresh3-*``): Python-ecosystem tools new to the corpus: nose2,
sphinx-build, mkdocs, django, alembic, flask, pyupgrade, docformatter, flynt, pyproject-build,
pip-compile, jupyter nbconvert, papermill, ansible-playbook, interrogate, scons, cpplint, gcovr."""

from __future__ import annotations

import json

from casekit import batch, dedent

CASES, add = batch("fresh3")


# --- nose2 ---------------------------------------------------------------------------------------

NOSE_SRC = {
    "shipping.py": dedent("""
        import logging
        log = logging.getLogger("shipping")

        RATES = {"EU": 4.5, "US": 7.0}

        def cost(region, kg):
            if region not in RATES:
                log.error("no shipping rate for region %r, using fallback", region)
                return 10.0 * kg
            return RATES[region] * kg
    """),
}
NOSE_OK = dedent("""
    import unittest
    from shipping import cost

    class CostTest(unittest.TestCase):
        def test_eu(self):
            self.assertEqual(cost("EU", 2), 9.0)

        def test_unknown_region_falls_back(self):
            self.assertEqual(cost("MARS", 1), 10.0)
""")
NOSE_BAD = NOSE_OK + dedent("""

    class UsTest(unittest.TestCase):
        def test_us(self):
            self.assertEqual(cost("US", 3), 20.0)
""")
add(
    "nose2-pass",
    "nose2",
    "plain_success",
    None,
    "nose2 runs the shipping tests with a logging filter at CRITICAL; both pass",
    "nose2 -v --log-level 50",
    files={**NOSE_SRC, "test_shipping.py": NOSE_OK},
    env={"PYTHONWARNINGS": "ignore"},
    confirm=r"OK",
)
add(
    "nose2-pass-logs-error",
    "nose2",
    "success_alarming_stderr",
    None,
    "nose2 -v runs the shipping tests; the fallback path logs an ERROR to stderr as designed and both tests pass",
    "nose2 -v",
    files={**NOSE_SRC, "test_shipping.py": NOSE_OK},
    confirm=r"(?s)(?=.*no shipping rate for region)(?=.*\nOK)",
)
add(
    "nose2-fail",
    "nose2",
    "plain_failure",
    None,
    "nose2 runs the shipping tests; the US rate assertion fails and nose2 exits 1",
    "nose2 -v",
    files={**NOSE_SRC, "test_shipping.py": NOSE_BAD},
    expect=1,
    group="fresh3-nose2-fail",
)
add(
    "nose2-fail-echo-done",
    "nose2",
    "exit0_hidden_failure",
    None,
    "a test step runs nose2 then '; echo tests finished'; the US rate assertion fails and the echo leaves exit 0",
    "nose2 -v; echo tests finished",
    files={**NOSE_SRC, "test_shipping.py": NOSE_BAD},
    confirm=r"FAILED \(failures=1\)",
    group="fresh3-nose2-fail",
)

# --- sphinx-build --------------------------------------------------------------------------------

SPHINX_CONF = 'project = "demo"\nextensions = ["sphinx.ext.autodoc"]\nimport os, sys\nsys.path.insert(0, os.path.abspath(".."))\n'
SPHINX_INDEX_BROKEN = dedent("""
    Demo
    ====

    See :ref:`installation-guide` for setup.

    .. toctree::

       usage
       changelog
""")
SPHINX_DOCS = {
    "docs/conf.py": SPHINX_CONF,
    "docs/index.rst": SPHINX_INDEX_BROKEN,
    "docs/usage.rst": "Usage\n=====\n\nRun ``demo --help``.\n",
}
add(
    "sphinx-werror-fails",
    "sphinx-build",
    "plain_failure",
    None,
    "sphinx-build -W builds docs whose index references a missing label and a missing toctree page; the warning becomes an error and it exits 1",
    "sphinx-build -W -q -b html docs _build",
    files=SPHINX_DOCS,
    expect=1,
    group="fresh3-sphinx-broken",
)
add(
    "sphinx-werror-keep-going-tee",
    "sphinx-build",
    "exit0_hidden_failure",
    None,
    "the docs job runs sphinx-build -W --keep-going through 'tee docs.log'; the warnings fail the build and tee exits 0",
    "sphinx-build -W --keep-going -b html docs _build 2>&1 | tee docs.log",
    files=SPHINX_DOCS,
    confirm=r"(?i)build finished with problems|warnings? treated as errors?",
    group="fresh3-sphinx-broken",
)
add(
    "sphinx-autodoc-import-fails-exit0",
    "sphinx-build",
    "exit0_hidden_failure",
    None,
    "sphinx-build (no -W) builds the API page but autodoc cannot import the module, so the API reference is empty; it exits 0",
    "sphinx-build -b html docs _build",
    files={
        "docs/conf.py": SPHINX_CONF,
        "docs/index.rst": "API\n===\n\n.. automodule:: billing\n   :members:\n",
        "billing.py": 'import stripe_sdk\n\ndef charge(amount):\n    """Charge a card."""\n    return stripe_sdk.charge(amount)\n',
    },
    confirm=r"failed to import",
)
add(
    "sphinx-nitpicky-warnings-built",
    "sphinx-build",
    "success_alarming_stderr",
    None,
    "sphinx-build builds a small doc set and reports a duplicate-label warning; the HTML is written and the build succeeds",
    "sphinx-build -b html docs _build && test -f _build/index.html && echo 'html ok'",
    files={
        "docs/conf.py": 'project = "demo"\nextensions = ["sphinx.ext.autosectionlabel"]\n',
        "docs/index.rst": "Demo\n====\n\n.. toctree::\n\n   a\n   b\n",
        "docs/a.rst": "Errors\n======\n\nSetup\n-----\n\nText.\n\nSetup\n-----\n\nMore.\n",
        "docs/b.rst": "Failures\n========\n\nHow failures are reported.\n",
    },
    confirm=r"(?s)(?=.*WARNING)(?=.*html ok)",
)

# --- mkdocs --------------------------------------------------------------------------------------

MK_FILES = {
    "mkdocs.yml": "site_name: Demo\nnav:\n  - Home: index.md\n  - Setup: setup.md\n",
    "docs/index.md": "# Demo\n\nStart with the [setup guide](setup.md) and the [FAQ](faq.md).\n",
    "docs/setup.md": "# Setup\n\n```\npip install demo\n```\n",
}
add(
    "mkdocs-strict-broken-link",
    "mkdocs",
    "plain_failure",
    None,
    "mkdocs build --strict on docs that link to a page that does not exist; the warning aborts the build and mkdocs exits 1",
    "mkdocs build --strict",
    files=MK_FILES,
    expect=1,
    group="fresh3-mkdocs-link",
)
add(
    "mkdocs-strict-or-true",
    "mkdocs",
    "exit0_hidden_failure",
    None,
    "the docs job runs mkdocs build --strict '|| true'; the broken link aborts the build and the job exits 0",
    "mkdocs build --strict || true",
    files=MK_FILES,
    confirm=r"(?i)aborted",
    group="fresh3-mkdocs-link",
)
add(
    "mkdocs-build-ok",
    "mkdocs",
    "plain_success",
    None,
    "mkdocs build renders a two-page site; it logs INFO lines on stderr and writes site/index.html",
    "mkdocs build --strict && test -f site/setup/index.html && echo built",
    files={**MK_FILES, "docs/index.md": "# Demo\n\nStart with the [setup guide](setup.md).\n"},
    confirm=r"built",
)

# --- django --------------------------------------------------------------------------------------

DJ_MANAGE = dedent("""
    import os, sys
    if __name__ == "__main__":
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "proj.settings")
        from django.core.management import execute_from_command_line
        execute_from_command_line(sys.argv)
""")
DJ_SETTINGS = dedent("""
    SECRET_KEY = "corpus-not-secret"
    DEBUG = True
    ALLOWED_HOSTS = ["*"]
    INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "shop"]
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}
    ROOT_URLCONF = "proj.urls"
    USE_TZ = True
    DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
""")
DJ_MODELS = dedent("""
    import logging
    from django.db import models

    log = logging.getLogger("shop")

    class Product(models.Model):
        name = models.CharField(max_length=100)
        price_cents = models.IntegerField()
        stock = models.IntegerField(default=0)

        def reserve(self, qty):
            if qty > self.stock:
                log.error("reservation failed: %s has %d in stock, %d requested", self.name, self.stock, qty)
                return False
            self.stock -= qty
            self.save()
            return True
""")
DJ_TESTS_OK = dedent("""
    from django.test import TestCase
    from shop.models import Product

    class ReserveTests(TestCase):
        def test_reserve_ok(self):
            p = Product.objects.create(name="mug", price_cents=900, stock=3)
            self.assertTrue(p.reserve(2))
            self.assertEqual(Product.objects.get(pk=p.pk).stock, 1)

        def test_reserve_error_when_out_of_stock(self):
            p = Product.objects.create(name="lamp", price_cents=2500, stock=0)
            self.assertFalse(p.reserve(1))
""")
DJ_TESTS_BAD = DJ_TESTS_OK + (
    "\n    def test_price_display(self):\n"
    "        p = Product.objects.create(name='pen', price_cents=150, stock=1)\n"
    "        self.assertEqual(f'{p.price_cents / 100:.2f} EUR', '1.50 USD')\n"
)


def django_files(tests: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    files = {
        "manage.py": DJ_MANAGE,
        "proj/__init__.py": "",
        "proj/settings.py": DJ_SETTINGS,
        "proj/urls.py": "urlpatterns = []\n",
        "shop/__init__.py": "",
        "shop/models.py": DJ_MODELS,
        "shop/migrations/__init__.py": "",
        "shop/tests.py": tests,
    }
    files.update(extra or {})
    return files


DJ_SETUP = "python3 manage.py makemigrations shop -v 0"
add(
    "django-test-pass-logs-error",
    "django",
    "success_alarming_stderr",
    None,
    "manage.py test runs the shop tests; the out-of-stock path logs 'reservation failed' on stderr as designed and both tests pass",
    "python3 manage.py test -v 2",
    files=django_files(DJ_TESTS_OK),
    setup=DJ_SETUP,
    needs=("django-admin",),
    confirm=r"(?s)(?=.*reservation failed)(?=.*\nOK)",
)
add(
    "django-test-fail",
    "django",
    "plain_failure",
    None,
    "manage.py test runs the shop tests; the price display test expects the wrong currency and the run exits 1",
    "python3 manage.py test",
    files=django_files(DJ_TESTS_BAD),
    setup=DJ_SETUP,
    needs=("django-admin",),
    expect=1,
    confirm=r"FAILED \(failures=1\)",
)
add(
    "django-check-ok",
    "django",
    "plain_success",
    None,
    "manage.py check on a small project finds no issues",
    "python3 manage.py check",
    files=django_files(DJ_TESTS_OK),
    setup=DJ_SETUP,
    needs=("django-admin",),
    confirm=r"no issues",
)
add(
    "django-check-deploy-fail-level",
    "django",
    "plain_failure",
    None,
    "manage.py check --deploy --fail-level WARNING on a DEBUG=True project reports security warnings and exits 1",
    "python3 manage.py check --deploy --fail-level WARNING",
    files=django_files(DJ_TESTS_OK),
    setup=DJ_SETUP,
    needs=("django-admin",),
    expect=1,
    confirm=r"security\.W",
)
add(
    "django-migrate-runpython-fails-continue",
    "django",
    "exit0_hidden_failure",
    None,
    "a deploy script runs manage.py migrate '|| echo' and carries on; a data migration raises and the deploy exits 0",
    "python3 manage.py migrate --no-input || echo 'WARN: migrate failed, continuing deploy'; echo 'deploy: restarting workers'",
    files=django_files(
        DJ_TESTS_OK,
        {
            "shop/migrations/0002_backfill.py": dedent("""
                from django.db import migrations

                def backfill(apps, schema_editor):
                    Product = apps.get_model("shop", "Product")
                    for p in Product.objects.all():
                        p.price_cents = int(p.legacy_price * 100)
                        p.save()
                    raise ValueError("legacy price column missing; run the export first")

                class Migration(migrations.Migration):
                    dependencies = [("shop", "0001_initial")]
                    operations = [migrations.RunPython(backfill)]
            """),
        },
    ),
    setup="mv shop/migrations/0002_backfill.py /tmp/_bf_$$.py; "
    + DJ_SETUP
    + "; mv /tmp/_bf_$$.py shop/migrations/0002_backfill.py",
    needs=("django-admin",),
    confirm=r"legacy price column missing",
)

# --- alembic -------------------------------------------------------------------------------------

ALEMBIC_V1 = dedent("""
    from alembic import op
    import sqlalchemy as sa

    revision = "a1b2c3d4e5f6"
    down_revision = None
    branch_labels = None
    depends_on = None

    def upgrade():
        op.create_table("users", sa.Column("id", sa.Integer, primary_key=True), sa.Column("email", sa.String(200), nullable=False))

    def downgrade():
        op.drop_table("users")
""")
ALEMBIC_V2_BAD = dedent("""
    from alembic import op
    import sqlalchemy as sa

    revision = "b2c3d4e5f6a7"
    down_revision = "a1b2c3d4e5f6"
    branch_labels = None
    depends_on = None

    def upgrade():
        op.execute("UPDATE accounts SET plan = 'free' WHERE plan IS NULL")

    def downgrade():
        pass
""")
ALEMBIC_SETUP = (
    "alembic init migrations >/dev/null && "
    "sed -i 's#^sqlalchemy.url = .*#sqlalchemy.url = sqlite:///app.db#' alembic.ini && "
    "cp vers/*.py migrations/versions/"
)
add(
    "alembic-upgrade-ok",
    "alembic",
    "progress_on_stderr",
    "success",
    "alembic upgrade head applies the initial migration, logging each step as INFO on stderr",
    "alembic upgrade head && sqlite3 app.db '.tables'",
    files={"vers/a1_users.py": ALEMBIC_V1},
    setup=ALEMBIC_SETUP,
    needs=("alembic", "sqlite3"),
    confirm=r"users",
)
add(
    "alembic-upgrade-missing-table",
    "alembic",
    "failure_noisy_stderr",
    None,
    "alembic upgrade head runs a data migration against a table that does not exist; SQLAlchemy raises with a long traceback and alembic exits 1",
    "alembic upgrade head",
    files={"vers/a1_users.py": ALEMBIC_V1, "vers/b2_plan.py": ALEMBIC_V2_BAD},
    setup=ALEMBIC_SETUP,
    expect=1,
    confirm=r"no such table: accounts",
    group="fresh3-alembic-bad",
)
add(
    "alembic-upgrade-tail-deploy",
    "alembic",
    "exit0_hidden_failure",
    None,
    "a deploy script shows the last lines of 'alembic upgrade head' through tail and starts the app; the migration fails and the script exits 0",
    "alembic upgrade head 2>&1 | tail -n 4; echo 'deploy: app started'",
    files={"vers/a1_users.py": ALEMBIC_V1, "vers/b2_plan.py": ALEMBIC_V2_BAD},
    setup=ALEMBIC_SETUP,
    confirm=r"no such table: accounts",
    group="fresh3-alembic-bad",
)

# --- flask ---------------------------------------------------------------------------------------

FLASK_APP = dedent("""
    import sqlite3
    import click
    from flask import Flask, jsonify

    app = Flask(__name__)

    @app.get("/health")
    def health():
        return jsonify(status="ok")

    @app.get("/orders")
    def orders():
        db = sqlite3.connect("shop.db")
        rows = db.execute("select id, total from orders").fetchall()
        return jsonify(rows)

    @app.errorhandler(500)
    def err(e):
        return jsonify(error="internal error"), 500

    @app.cli.command("seed")
    def seed():
        db = sqlite3.connect("shop.db")
        db.execute("insert into orders (id, total) values (1, 9.99)")
        db.commit()
        click.echo("seeded")
""")
add(
    "flask-routes-ok",
    "flask",
    "plain_success",
    None,
    "flask routes lists the app's endpoints",
    "flask --app app routes",
    files={"app.py": FLASK_APP},
    confirm=r"/orders",
)
add(
    "flask-cli-seed-raises",
    "flask",
    "plain_failure",
    None,
    "flask seed (a custom CLI command) inserts into a table that was never created; sqlite3 raises and flask exits 1",
    "flask --app app seed",
    files={"app.py": FLASK_APP},
    expect=1,
    confirm=r"no such table: orders",
)
add(
    "flask-smoke-status-unchecked",
    "flask",
    "exit0_hidden_failure",
    None,
    "a smoke script requests each route with Flask's test client and only prints the status codes; /orders returns 500 and the script exits 0",
    "python3 smoke.py",
    files={
        "app.py": FLASK_APP,
        "smoke.py": "from app import app\nc = app.test_client()\nfor path in ('/health', '/orders'):\n    print(path, c.get(path).status_code)\nprint('smoke done')\n",
    },
    needs=("flask",),
    confirm=r"/orders 500",
)
add(
    "flask-errorhandler-test-pass",
    "flask",
    "success_alarming_stderr",
    None,
    "a pytest suite checks that the 500 handler returns JSON; Flask logs the exception traceback while the test passes",
    "pytest -q -s -p no:cacheprovider -p no:logging test_app.py",
    files={
        "app.py": FLASK_APP,
        "test_app.py": dedent("""
            from app import app

            def test_orders_error_returns_json():
                app.config["PROPAGATE_EXCEPTIONS"] = False
                r = app.test_client().get("/orders")
                assert r.status_code == 500
                assert r.get_json() == {"error": "internal error"}
        """),
    },
    needs=("flask", "pytest"),
    confirm=r"(?s)(?=.*Exception on /orders)(?=.*1 passed)",
)

# --- pyupgrade / docformatter / flynt / interrogate ----------------------------------------------

OLD_PY = {
    "src/util.py": dedent("""
        from typing import List, Optional, Dict

        class Cache(object):
            def __init__(self):
                super(Cache, self).__init__()
                self.data: Dict[str, List[int]] = dict()

            def get(self, key: str) -> Optional[List[int]]:
                return self.data.get(key)

        def label(name, n):
            return "{} has {} items".format(name, n)

        def tag(a, b):
            return "%s-%s" % (a, b)

        def names(xs):
            return set([x.lower() for x in xs])
    """),
}
add(
    "pyupgrade-rewrites-exit1",
    "pyupgrade",
    "plain_failure",
    None,
    "pyupgrade --py311-plus as a pre-commit style check rewrites old syntax in a file and exits 1 to flag the change",
    "pyupgrade --py311-plus src/util.py",
    files=OLD_PY,
    expect=1,
    confirm=r"Rewriting",
)
add(
    "pyupgrade-fix-then-clean",
    "pyupgrade",
    "success_alarming_stderr",
    None,
    "the fix step reruns pyupgrade until a pass changes nothing (at most three passes); the early passes rewrite the file and the last exits 0",
    "for i in 1 2 3; do pyupgrade --py311-plus src/util.py && break; done && grep -c 'class Cache:' src/util.py",
    files=OLD_PY,
    confirm=r"(?ms)(?=.*Rewriting)(?=.*^1$)",
)
DOC_SRC = {
    "src/api.py": dedent('''
        def fetch(url, retries=3):
            """   fetch a url.
            retries the request on errors.   """
            return url


        def parse(text):
            """
            parse the response body
            """
            return text
    '''),
}
add(
    "docformatter-check-fail",
    "docformatter",
    "plain_failure",
    None,
    "docformatter --check finds docstrings that need reformatting and exits non-zero",
    "docformatter --check -r src",
    files=DOC_SRC,
    group="fresh3-docformatter-check",
)
add(
    "docformatter-check-or-true",
    "docformatter",
    "exit0_hidden_failure",
    None,
    "the docstring gate runs 'docformatter --check -r src || true' then prints that the lint stage finished; files need formatting and it exits 0",
    "docformatter --check -r src || true; echo 'lint stage finished'",
    files=DOC_SRC,
    confirm=r"src/api\.py",
    group="fresh3-docformatter-check",
)
add(
    "docformatter-fix-then-check",
    "docformatter",
    "plain_success",
    None,
    "docformatter --in-place rewrites the docstrings (its change status ignored), and a second --check confirms they are formatted",
    "docformatter --in-place -r src; docformatter --check -r src && echo docstrings formatted",
    files=DOC_SRC,
    confirm=r"docstrings formatted",
)
add(
    "flynt-converts",
    "flynt",
    "plain_success",
    None,
    "flynt converts %-formatting and .format() calls to f-strings in place and prints its summary",
    'flynt src && python3 -c \'import sys; sys.path.insert(0, "src"); import util; print(util.label("box", 3))\'',
    files=OLD_PY,
    confirm=r"box has 3 items",
)
add(
    "flynt-fail-on-change",
    "flynt",
    "plain_failure",
    None,
    "flynt --fail-on-change in CI converts a string format and exits 1 because the file changed",
    "flynt --fail-on-change src",
    files=OLD_PY,
)
add(
    "interrogate-under-threshold",
    "interrogate",
    "plain_failure",
    None,
    "interrogate --fail-under 80 measures docstring coverage of a module with one documented function of four; it exits 1",
    "interrogate -v --fail-under 80 src",
    files={
        "src/__init__.py": '"""Package."""\n',
        "src/m.py": '"""Module."""\n\ndef a():\n    """A."""\n\ndef b():\n    pass\n\ndef c():\n    pass\n\ndef d():\n    pass\n',
    },
    expect=1,
    confirm=r"FAILED",
)

# --- pyproject-build / pip-compile ---------------------------------------------------------------

PROJ = {
    "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "app"\nversion = "0.1.0"\n\n[tool.setuptools]\npackages = ["app"]\n',
    "app/__init__.py": "VERSION = '0.1.0'\n",
    "MANIFEST.in": "include docs/*.txt\nrecursive-include examples *.py\n",
}
add(
    "build-no-isolation-warnings-ok",
    "pyproject-build",
    "success_alarming_stderr",
    None,
    "pyproject-build --no-isolation builds an sdist and a wheel; setuptools warns that MANIFEST.in patterns match no files, and both artefacts are built",
    "pyproject-build --no-isolation . && ls dist",
    files=PROJ,
    confirm=r"(?s)(?=.*warning: no files found matching)(?=.*Successfully built)",
)
add(
    "build-isolated-offline-fails",
    "pyproject-build",
    "plain_failure",
    None,
    "pyproject-build with build isolation must install setuptools into a fresh env; the index is off and it exits 1",
    "pyproject-build --wheel .",
    files=PROJ,
    expect=1,
    timeout=90,
)
add(
    "build-setup-py-raises-tee",
    "pyproject-build",
    "exit0_hidden_failure",
    None,
    "the packaging step pipes pyproject-build into tee; setup.py raises while computing the version and tee exits 0",
    "pyproject-build --no-isolation --sdist . 2>&1 | tee build.log",
    files={
        "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n',
        "setup.py": "from setuptools import setup\nimport subprocess\nversion = subprocess.check_output(['git', 'describe', '--tags'], text=True).strip()\nsetup(name='app', version=version, packages=['app'])\n",
        "app/__init__.py": "",
    },
    confirm=r"CalledProcessError|fatal: not a git repository",
)
add(
    "pip-compile-find-links-ok",
    "pip-compile",
    "plain_success",
    None,
    "pip-compile resolves requirements.in against a local wheel directory (no index) and writes pinned requirements.txt",
    "pip-compile -q --no-index --find-links wheels --no-strip-extras requirements.in && cat requirements.txt",
    files={
        "requirements.in": "libb\n",
        "p/liba/pyproject.toml": '[build-system]\nrequires=["setuptools"]\nbuild-backend="setuptools.build_meta"\n[project]\nname="liba"\nversion="1.2.0"\n',
        "p/liba/liba/__init__.py": "",
        "p/libb/pyproject.toml": '[build-system]\nrequires=["setuptools"]\nbuild-backend="setuptools.build_meta"\n[project]\nname="libb"\nversion="2.0.1"\ndependencies=["liba>=1"]\n',
        "p/libb/libb/__init__.py": "",
    },
    setup="pip wheel -q --no-deps --no-build-isolation -w wheels p/liba p/libb",
    confirm=r"liba==1\.2\.0",
    timeout=90,
)
add(
    "pip-compile-unresolvable",
    "pip-compile",
    "plain_failure",
    None,
    "pip-compile asks for libb>=3 but only 2.0.1 is in the local wheel directory; resolution fails and it exits non-zero",
    "pip-compile --no-index --find-links wheels requirements.in",
    files={
        "requirements.in": "libb>=3\n",
        "p/libb/pyproject.toml": '[build-system]\nrequires=["setuptools"]\nbuild-backend="setuptools.build_meta"\n[project]\nname="libb"\nversion="2.0.1"\n',
        "p/libb/libb/__init__.py": "",
    },
    setup="pip wheel -q --no-deps --no-build-isolation -w wheels p/libb",
    timeout=90,
)

# --- jupyter nbconvert / papermill ---------------------------------------------------------------


def notebook(*cells: str, params: str | None = None) -> str:
    nb_cells = []
    if params is not None:
        nb_cells.append(
            {
                "cell_type": "code",
                "metadata": {"tags": ["parameters"]},
                "source": params,
                "outputs": [],
                "execution_count": None,
            }
        )
    for src in cells:
        nb_cells.append(
            {
                "cell_type": "code",
                "metadata": {},
                "source": src,
                "outputs": [],
                "execution_count": None,
            }
        )
    return json.dumps(
        {
            "cells": nb_cells,
            "metadata": {
                "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
            },
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


NB_BAD = notebook(
    "import statistics\nsales = [120, 95, 143]\nprint('mean', statistics.mean(sales))",
    "growth = (sales[-1] - sales[0]) / len([])\nprint(growth)",
)
add(
    "nbconvert-execute-error",
    "jupyter",
    "plain_failure",
    None,
    "jupyter nbconvert --execute runs a report notebook whose second cell divides by zero; the cell error aborts the conversion and it exits 1",
    "jupyter nbconvert --to html --execute report.ipynb",
    files={"report.ipynb": NB_BAD},
    expect=1,
    confirm=r"ZeroDivisionError",
    timeout=90,
    group="fresh3-nbconvert-bad",
)
add(
    "nbconvert-allow-errors",
    "jupyter",
    "exit0_hidden_failure",
    None,
    "the report job executes the notebook with --allow-errors and writes it to stdout; the growth cell raises ZeroDivisionError and the job exits 0",
    "jupyter nbconvert --to notebook --execute --allow-errors --stdout report.ipynb",
    files={"report.ipynb": NB_BAD},
    confirm=r"ZeroDivisionError",
    timeout=90,
    group="fresh3-nbconvert-bad",
)
add(
    "nbconvert-execute-ok",
    "jupyter",
    "plain_success",
    None,
    "jupyter nbconvert --execute renders a notebook that computes a summary to HTML; it logs its steps on stderr",
    "jupyter nbconvert --to html --execute report.ipynb && test -s report.html && echo rendered",
    files={"report.ipynb": notebook("sales = [120, 95, 143]\nprint('total', sum(sales))")},
    confirm=r"rendered",
    timeout=90,
)
add(
    "papermill-param-fails",
    "papermill",
    "failure_noisy_stderr",
    None,
    "papermill runs a notebook with region=APAC, for which the lookup raises KeyError; papermill reports the cell traceback and exits 1",
    "papermill --log-output report.ipynb out.ipynb -p region APAC",
    files={
        "report.ipynb": notebook(
            "rates = {'EU': 0.2, 'US': 0.1}\nprint('rate', rates[region])", params="region = 'EU'"
        )
    },
    expect=1,
    confirm=r"KeyError",
    timeout=90,
)
add(
    "papermill-progress-ok",
    "papermill",
    "progress_on_stderr",
    "success",
    "papermill executes a three-cell notebook, drawing an 'Executing' progress bar on stderr, and writes the output notebook",
    "papermill report.ipynb out.ipynb -p region US && test -s out.ipynb && echo executed",
    files={
        "report.ipynb": notebook(
            "rates = {'EU': 0.2, 'US': 0.1}", "print('rate', rates[region])", params="region = 'EU'"
        )
    },
    confirm=r"(?s)(?=.*Executing)(?=.*executed)",
    timeout=90,
)

# --- ansible-playbook ----------------------------------------------------------------------------

PLAY_OK = dedent("""
    - hosts: localhost
      gather_facts: false
      tasks:
        - name: probe for an optional legacy config
          command: cat /etc/legacy-app.conf
          register: legacy
          ignore_errors: true
        - name: write app config
          copy:
            dest: "{{ playbook_dir }}/out/app.conf"
            content: "workers=4\\n"
        - name: enable debug line
          lineinfile:
            path: "{{ playbook_dir }}/out/app.conf"
            line: "debug=false"
""")
PLAY_BAD = dedent("""
    - hosts: localhost
      gather_facts: false
      tasks:
        - name: write app config
          copy:
            dest: "{{ playbook_dir }}/out/app.conf"
            content: "workers=4\\n"
        - name: validate config with the app binary
          command: "{{ playbook_dir }}/bin/appctl validate {{ playbook_dir }}/out/app.conf"
        - name: restart app
          debug:
            msg: restarted
""")
ANS_ENV = {
    "ANSIBLE_LOCALHOST_WARNING": "false",
    "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false",
    "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
}
ANS_BIN = {
    "bin/appctl": "#!/bin/sh\necho \"appctl: $2: unknown key 'workers' (line 1)\" >&2\nexit 3\n"
}
add(
    "ansible-ignored-probe-ok",
    "ansible-playbook",
    "success_alarming_stderr",
    None,
    "a local playbook probes for an optional legacy config with ignore_errors (it fails and is '...ignoring'), then writes the config; recap shows failed=0",
    "mkdir -p out && ansible-playbook -i localhost, -c local play.yml",
    files={"play.yml": PLAY_OK},
    env=ANS_ENV,
    confirm=r"(?s)(?=.*FAILED!)(?=.*\.\.\.ignoring)(?=.*failed=0)",
    timeout=90,
)
add(
    "ansible-task-fails",
    "ansible-playbook",
    "plain_failure",
    None,
    "a local playbook's validate task runs a command that exits 3; the play stops and ansible-playbook exits 2",
    "mkdir -p out && ansible-playbook -i localhost, -c local play.yml",
    files={"play.yml": PLAY_BAD, **ANS_BIN},
    env=ANS_ENV,
    expect=2,
    timeout=90,
    group="fresh3-ansible-bad",
)
add(
    "ansible-task-fails-or-echo",
    "ansible-playbook",
    "exit0_hidden_failure",
    None,
    "a provisioning script runs the playbook '|| echo' a notice and continues; the validate task fails and the script exits 0",
    "mkdir -p out && ansible-playbook -i localhost, -c local play.yml || echo 'provisioning incomplete, will retry on next run'",
    files={"play.yml": PLAY_BAD, **ANS_BIN},
    env=ANS_ENV,
    confirm=r"fatal: \[localhost\]",
    timeout=90,
    group="fresh3-ansible-bad",
)
add(
    "ansible-force-color-fail",
    "ansible-playbook",
    "coloured_output",
    "failure",
    "the same failing playbook with ANSIBLE_FORCE_COLOR=1; the validate task fails and ansible-playbook exits 2",
    "mkdir -p out && ansible-playbook -i localhost, -c local play.yml",
    files={"play.yml": PLAY_BAD, **ANS_BIN},
    env={**ANS_ENV, "ANSIBLE_FORCE_COLOR": "1"},
    expect=2,
    timeout=90,
    group="fresh3-ansible-bad",
)

# --- scons / cpplint / gcovr ---------------------------------------------------------------------

add(
    "scons-build-ok",
    "scons",
    "plain_success",
    None,
    "scons builds a two-file C program and runs nothing else",
    "scons -Q && ./hello",
    files={
        "SConstruct": "Program('hello', ['main.c', 'greet.c'])\n",
        "main.c": 'void greet(const char *);\nint main(void) { greet("scons"); return 0; }\n',
        "greet.c": '#include <stdio.h>\nvoid greet(const char *w) { printf("hello %s\\n", w); }\n',
    },
    needs=("scons", "gcc"),
    confirm=r"hello scons",
)
SCONS_BAD = {
    "SConstruct": "Program('hello', ['main.c', 'greet.c'])\n",
    "main.c": 'void greet(const char *);\nint main(void) { greet("scons"); return 0; }\n',
    "greet.c": '#include <stdio.h>\nvoid greet(const char *w) { printf("hello %s\\n", w) }\n',
}
add(
    "scons-compile-error",
    "scons",
    "plain_failure",
    None,
    "scons builds a program whose greet.c is missing a semicolon; gcc fails and scons exits 2",
    "scons",
    files=SCONS_BAD,
    needs=("scons", "gcc"),
    expect=2,
    group="fresh3-scons-bad",
)
add(
    "scons-ignore-errors",
    "scons",
    "exit0_hidden_failure",
    None,
    "scons -i (ignore errors) builds the same broken sources; the compile fails, no program is linked, and scons exits 0",
    "scons -i",
    files=SCONS_BAD,
    needs=("scons", "gcc"),
    confirm=r"error:",
    group="fresh3-scons-bad",
)
CPP_SRC = {
    "src/queue.cc": dedent("""
        #include <vector>
        #include <string>
        using namespace std;
        class Queue {
          public:
          Queue(int n) { cap=n; }
          void push(string s){ if(items.size()<cap) items.push_back(s); }
          private:
          vector<string> items; unsigned cap;
        };
    """),
}
add(
    "cpplint-errors",
    "cpplint",
    "plain_failure",
    None,
    "cpplint checks a C++ file with style violations (using namespace, explicit constructor, missing copyright); it exits 1",
    "cpplint src/queue.cc",
    files=CPP_SRC,
    expect=1,
    confirm=r"Total errors found",
    group="fresh3-cpplint",
)
add(
    "cpplint-tee-log",
    "cpplint",
    "exit0_hidden_failure",
    None,
    "the lint step stores cpplint's report with '2>&1 | tee lint.txt'; violations are found and tee exits 0",
    "cpplint --recursive src 2>&1 | tee lint.txt",
    files=CPP_SRC,
    confirm=r"Total errors found",
    group="fresh3-cpplint",
)
add(
    "cpplint-clean",
    "cpplint",
    "plain_success",
    None,
    "cpplint checks a clean header with a copyright line and include guard and finds nothing",
    "cpplint --root=src src/point.h",
    files={
        "src/point.h": "// Copyright 2024 Corpus\n#ifndef POINT_H_\n#define POINT_H_\n\nstruct Point {\n  int x;\n  int y;\n};\n\n#endif  // POINT_H_\n"
    },
    confirm=r"Done processing",
)
GCOV_FILES = {
    "calc.c": dedent("""
        #include <stdio.h>
        int clamp(int v, int lo, int hi) {
            if (v < lo) return lo;
            if (v > hi) return hi;
            return v;
        }
        int sign(int v) {
            if (v < 0) return -1;
            if (v > 0) return 1;
            return 0;
        }
        int main(void) {
            printf("%d\\n", clamp(5, 0, 10));
            return 0;
        }
    """),
}
GCOV_SETUP = "gcc --coverage -O0 -o calc calc.c && ./calc >/dev/null"
add(
    "gcovr-fail-under-line",
    "gcovr",
    "plain_failure",
    None,
    "gcovr --fail-under-line 80 reports coverage of a program whose tests only exercise one branch; it exits 2",
    "gcovr -r . --fail-under-line 80",
    files=GCOV_FILES,
    setup=GCOV_SETUP,
    needs=("gcovr", "gcc"),
    expect=2,
)
add(
    "gcovr-report-ok",
    "gcovr",
    "plain_success",
    None,
    "gcovr prints a text coverage report after a test run",
    "gcovr -r . --txt",
    files=GCOV_FILES,
    setup=GCOV_SETUP,
    needs=("gcovr", "gcc"),
    confirm=r"TOTAL",
)
