import java.io.*;
public class Load { public static void main(String[] a) { String port = "8080"; try { new FileReader("cache/config.properties"); } catch (FileNotFoundException e) { e.printStackTrace(); System.err.println("using defaults"); } System.out.println("config loaded: port=" + port); } }
