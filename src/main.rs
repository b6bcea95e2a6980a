fn main() {
    eprintln!("glemu: the CLI is being built (see ARCHITECTURE.md)");
    std::process::exit(2);
}
