function (x: number) { return x }
