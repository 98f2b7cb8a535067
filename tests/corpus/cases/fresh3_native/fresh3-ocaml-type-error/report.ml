let total = List.fold_left (+) 0 [1; 2; 3]
let avg = total /. 3.0
let () = Printf.printf "%f\n" avg
