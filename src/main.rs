fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = glemu::cli::main(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
