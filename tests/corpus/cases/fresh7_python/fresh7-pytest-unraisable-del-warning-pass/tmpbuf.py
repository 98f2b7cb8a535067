class Buffer:
    def __init__(self):
        self.data = []
    def write(self, s):
        self.data.append(s)
        return len(s)
    def __del__(self):
        raise OSError("flush on close failed: Bad file descriptor")
