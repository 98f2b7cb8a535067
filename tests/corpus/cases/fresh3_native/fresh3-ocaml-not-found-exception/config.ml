let cfg = [("host", "db"); ("user", "app")]
let () = print_endline ("port=" ^ List.assoc "port" cfg)
