module example.com/shadow

go 1.22
