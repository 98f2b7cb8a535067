import sys
def test_name():
    sys.stdout.buffer.write('Zoë\n'.encode('latin-1')); sys.stdout.flush()
    assert len('Zoë') == 3
