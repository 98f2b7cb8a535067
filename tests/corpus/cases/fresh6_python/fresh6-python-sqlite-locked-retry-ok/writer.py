import sqlite3, threading, time, logging
logging.basicConfig(format="%(levelname)s %(message)s")
a = sqlite3.connect("q.db", check_same_thread=False, timeout=0)
a.execute("create table jobs(id integer)")
a.commit()
a.execute("begin immediate")
threading.Timer(0.25, a.commit).start()
b = sqlite3.connect("q.db", timeout=0)
for attempt in range(1, 6):
    try:
        b.execute("insert into jobs values (1)")
        b.commit()
        print(f"committed on attempt {attempt}")
        break
    except sqlite3.OperationalError as exc:
        logging.error("attempt %d: sqlite3.OperationalError: %s", attempt, exc)
        time.sleep(0.15)
