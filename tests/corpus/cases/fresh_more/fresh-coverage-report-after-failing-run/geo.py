def clamp_lat(x):
    return max(-90, min(90, x))
