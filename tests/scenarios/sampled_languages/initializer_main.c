/* The program of initializer_spin.c: its library's constructor does the work; main does none. */
int main(void) { return 0; }
