for i in $(seq 1 25); do
  v=$((i * 2))
  : step $i
done
test -f dist/app.tar.gz
echo packaged
