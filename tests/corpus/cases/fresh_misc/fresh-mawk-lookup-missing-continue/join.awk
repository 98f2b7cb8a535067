BEGIN {
    while ((r = getline line < "customers.tsv") > 0) { split(line, f, "\t"); name[f[1]] = f[2] }
    if (r < 0) print "error: cannot read customers.tsv, names will be unknown" > "/dev/stderr"
}
{ printf "%s\t%s\t%s\n", $1, ($1 in name ? name[$1] : "UNKNOWN"), $2 }
