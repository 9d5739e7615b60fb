module example.com/p

go 1.22
