class Tx:
    def __del__(self):
        raise OSError("commit failed: database is locked")
t = Tx()
del t
print("ok")
