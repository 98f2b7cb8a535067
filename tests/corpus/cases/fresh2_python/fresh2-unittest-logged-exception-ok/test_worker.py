import json, logging, unittest
log = logging.getLogger("worker")
logging.basicConfig(level=logging.INFO)

def handle(messages):
    done = []
    for m in messages:
        try:
            done.append(json.loads(m)["id"])
        except (ValueError, KeyError):
            log.exception("ERROR dropping poisoned message %r", m)
    return done

class WorkerTest(unittest.TestCase):
    def test_skips_poison(self):
        self.assertEqual(handle(['{"id": 1}', "{not json", '{"id": 3}']), [1, 3])

    def test_empty(self):
        self.assertEqual(handle([]), [])
