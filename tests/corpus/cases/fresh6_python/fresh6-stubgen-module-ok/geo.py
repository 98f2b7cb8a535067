def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return ((a[0]-b[0])**2 + (a[1]-b[1])**2) ** 0.5
