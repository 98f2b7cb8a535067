mkdir -p dist
for i in 1 2 3; do
  echo "file $i" > dist/f$i.txt
done
tar czf dist.tgz dist
echo packaged
