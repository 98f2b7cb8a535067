import logging, sqlite3, threading, time
logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("writer")
setup = sqlite3.connect("app.db"); setup.execute("create table if not exists ev(x)"); setup.commit(); setup.close()
holder = sqlite3.connect("app.db", check_same_thread=False)
holder.execute("begin exclusive")
threading.Timer(0.4, holder.commit).start()
conn = sqlite3.connect("app.db", timeout=0)
for attempt in range(1, 10):
    try:
        conn.execute("insert into ev values (1)"); conn.commit()
        print(f"event stored on attempt {attempt}")
        break
    except sqlite3.OperationalError:
        log.exception("attempt %d failed", attempt)
        time.sleep(0.25)
print("rows:", conn.execute("select count(*) from ev").fetchone()[0])
