  $ greet --version
  greet 1.1.0

  $ greet Ada
  Hello, Ada!

  $ greet
  usage: greet NAME
  [2]
