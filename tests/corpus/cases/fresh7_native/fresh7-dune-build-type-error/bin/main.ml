let average xs = List.fold_left ( + ) 0 xs / List.length xs
let () = Printf.printf "%f\n" (average [1; 2; 3] +. 0.5)
