import no_such_pkg_here

def test_x():
    pass
