const a = {b:1}
