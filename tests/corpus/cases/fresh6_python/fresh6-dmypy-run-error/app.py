def parse_port(value: str) -> int:
    return value.split(":")[1]

print(parse_port("localhost:8080"))
