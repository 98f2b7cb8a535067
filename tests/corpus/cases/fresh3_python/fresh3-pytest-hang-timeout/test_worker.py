import queue

def test_worker_result():
    q = queue.Queue()
    assert q.get() == "done"
