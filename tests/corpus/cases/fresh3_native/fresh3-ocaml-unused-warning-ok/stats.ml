let describe n = match n with 0 -> "none" | 1 -> "one"
let () =
  let unused_total = 42 in
  print_endline ("result: " ^ describe 1)
