def total(xs: list[int]) -> int:
    return sum(xs)

n: int = total(["a", "b"])
s: str = n
