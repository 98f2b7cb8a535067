import nox

@nox.session(python=['3.99'])
def tests(session):
    session.run('pytest')
