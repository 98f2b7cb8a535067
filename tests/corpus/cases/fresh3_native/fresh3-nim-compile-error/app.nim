proc double(x: int): int = x * 2
echo double("21")
