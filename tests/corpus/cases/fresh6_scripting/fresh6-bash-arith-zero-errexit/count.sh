set -e
count=0
for f in a b c; do
  echo "processing $f"
  ((count++))
done
echo "processed $count"
