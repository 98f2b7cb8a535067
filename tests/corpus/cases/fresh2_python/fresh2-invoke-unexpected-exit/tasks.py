from invoke import task

@task
def test(c):
    c.run("python3 -m pytest -q -p no:cacheprovider tests")
