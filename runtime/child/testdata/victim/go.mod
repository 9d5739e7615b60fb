module example.com/victim

go 1.22
