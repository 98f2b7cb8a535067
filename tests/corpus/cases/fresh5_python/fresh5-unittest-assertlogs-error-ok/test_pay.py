import logging, sys, traceback, unittest
log = logging.getLogger("payments")
def charge(card):
    try:
        raise TimeoutError("gateway did not answer in 30s")
    except TimeoutError:
        traceback.print_exc()
        log.error("charge failed for card %s, queued for retry", card)
        return "queued"
class T(unittest.TestCase):
    def test_charge_queues(self):
        with self.assertLogs("payments", "ERROR") as cm:
            self.assertEqual(charge("4242"), "queued")
        self.assertIn("queued for retry", cm.output[0])
