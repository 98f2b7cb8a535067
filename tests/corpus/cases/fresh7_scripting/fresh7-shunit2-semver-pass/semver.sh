bump() {
  IFS=. read -r ma mi pa <<EOF
$2
EOF
  case $1 in
    patch) echo "$ma.$mi.$((pa+1))";;
    minor) echo "$ma.$((mi+1)).0";;
    major) echo "$((ma+1)).0.0";;
  esac
}
