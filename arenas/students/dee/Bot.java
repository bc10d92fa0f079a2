// Dee's bot: the first legal move that plays a card, else the first legal move.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Bot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.contains("\"type\":\"quit\"")) break;
            if (line.contains("\"type\":\"hello\"")) {
                System.out.println("{\"type\":\"ready\",\"name\":\"dee\"}");
            } else if (line.contains("\"type\":\"turn\"")) {
                int start = line.indexOf("\"legal\":[") + "\"legal\":[".length();
                String chosen = null;
                for (int at = start; at >= start && line.charAt(at) == '{'; at = line.indexOf('{', at + 1)) {
                    String item = line.substring(at, line.indexOf('}', at) + 1);
                    if (chosen == null || (item.contains("\"play\"") && !chosen.contains("\"play\""))) chosen = item;
                    if (line.charAt(line.indexOf('}', at) + 1) != ',') break;
                }
                System.out.println(chosen);
            }
            System.out.flush();
        }
    }
}
