  $ greet --version
  greet 1.2.0

  $ greet Ada
  Hello, Ada!

  $ greet
  usage: greet NAME
  [2]
