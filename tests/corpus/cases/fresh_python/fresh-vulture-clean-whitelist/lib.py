def area(w, h):
    return w * h


def on_load(event):
    return area(2, 3) + len(event)
