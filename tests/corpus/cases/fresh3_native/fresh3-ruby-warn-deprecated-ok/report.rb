$; = ','
puts 'a,b,c'.split.size
puts 'report: 3 columns'
