echo b; exit 3
